// client-node's KubeConfig (kubeconfig loading; exec, OIDC and cloud credentials; TLS options) and
// nothing else of the package. `npm run build` replaces this module's compiled output with an
// esbuild bundle of it (scripts/bundle-kube-config.mjs): the package's index loads its ~1,000
// generated API files, 0.6 s of every command's start on these machines, and the tree-shaken
// bundle loads in about 0.1 s. Import KubeConfig from here, never from the package, so only one
// KubeConfig class is ever loaded.
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
