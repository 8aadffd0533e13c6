/** The name a question gets when the owner adds it without typing one (the server needs a name). */
export const UNTITLED = 'Untitled Question';
