// The one safe writer lives in manifests/ (the host writes plans and their
// .bak through it too); the sidecar's tools import it from here.
export * from '../manifests/workspace-write.js';
