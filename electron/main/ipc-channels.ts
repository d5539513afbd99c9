// The IPC channels that carry the contract, and the preload's own for file tokens; shared by the main process and
// the preload.
export const CALL_CHANNEL = 'matchdesk:call';
export const EVENT_CHANNEL = 'matchdesk:event';
/** Only the preload sends on it (the page's calls all go on CALL_CHANNEL): a path Electron gave for a File of the page. */
export const FILE_TOKEN_CHANNEL = 'matchdesk:file-token';
