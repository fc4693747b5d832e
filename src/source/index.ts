// The face of src/source/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { credentialsFromSecretData, type GitCredentials } from './auth.js';
export { readCommitInfo, type CommitInfo } from './commit-info.js';
export { diffCommits, type FileChange } from './diff.js';
export { SourceError, type SourceErrorCode } from './errors.js';
export { exportCommit, exportDirOf } from './export.js';
export { fetchSource } from './fetch.js';
export { gitContext, type GitContext } from './git-context.js';
export { serveGit } from './git-http-backend.js';
export { cosignKeysFromSecretData, verifyCosign } from './oci/cosign-verify.js';
export { artifactDefinitions } from './oci/definitions.js';
export { credentialsFor, localCredentials, type RegistryCredentials } from './oci/docker-config.js';
export { OCI_MANIFEST } from './oci/media-types.js';
export { readTree, type PackedFile } from './oci/pack.js';
export { pullFiles, resolveArtifact, type ResolvedArtifact } from './oci/pull.js';
export { pushArtifact } from './oci/push.js';
export { parseOciUrl, repositoryUrl, type OciReference } from './oci/reference.js';
export { RegistryClient } from './oci/registry-client.js';
export { readBlobs } from './read-blobs.js';
export { formatRevision, shaOfRevision } from './revision.js';
export { sopsKeysFromSecretData, type SopsKeys } from './sops/sops-keys.js';
export { trustedKeysFromSecretData } from './verify/trusted-keys.js';
export { verifyRevision, type VerifyRevisionOutcome } from './verify/verify-revision.js';
export { webhookReceiver } from './webhook-receiver.js';
// faces:end
