/** The IndexedDB database the page's tools keep artifacts in; the page reads the same one. */
export const ARTIFACT_DB = 'toolctx-demo-artifacts';
