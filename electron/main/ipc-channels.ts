// The two IPC channels that carry the contract; shared by the main process and the preload.
export const CALL_CHANNEL = 'matchdesk:call';
export const EVENT_CHANNEL = 'matchdesk:event';
