import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { FORM_CHANGED } from '../submit/use-submit.ts';
import { uploadFailure } from './upload-errors.ts';

describe('uploadFailure', () => {
  it('says the form changed when the form no longer asks for a file (the owner removed the question)', () => {
    const refused = new ApiError(400, 'VALIDATION_FAILED', 'formId: This form does not ask for a file');
    expect(uploadFailure(refused)).toEqual({ message: FORM_CHANGED, retry: false });
  });

  it("gives the server's words for a refusal of the file itself", () => {
    const refused = new ApiError(400, 'VALIDATION_FAILED', 'The file is empty. Choose the file again');
    expect(uploadFailure(refused)).toEqual({
      message: 'The file is empty. Choose the file again',
      retry: false,
    });
  });
});
