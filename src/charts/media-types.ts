/** Helm's OCI media types (helm.sh/helm/v4/pkg/registry), as `helm push` writes a chart. */
export const HELM_CONFIG = 'application/vnd.cncf.helm.config.v1+json';
export const HELM_CONTENT = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
export const HELM_PROVENANCE = 'application/vnd.cncf.helm.chart.provenance.v1.prov';
