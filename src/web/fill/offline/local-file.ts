/** The deleteId of a file answer that is still only on this device, in the offline queue's IndexedDB. */
export const LOCAL_FILE = 'local:';
