// The sidecar's file writes go through the one safe writer shared with the
// host (manifests/safe-write.ts); this name stays so sidecar imports read as
// "write into the workspace".
export { nameTaken, realFolder, writeBytesInWorkspace, writeInWorkspace } from '../manifests/safe-write.js';
