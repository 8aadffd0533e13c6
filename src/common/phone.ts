/** A phone number as a form's `tel` answer and the joining form accept it, one pattern so they agree. */
export const PHONE_PATTERN = /^\+?[\d\s().-]{5,25}$/;
