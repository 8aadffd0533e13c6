import { z } from 'zod';

/** GET/PUT /api/formNotifications/:fid: who is mailed when a response arrives (docs/decisions/021). */
export const FormNotificationsSchema = z
  .object({
    /** A mail to the form's owner for each new response, folded into a digest when many arrive. */
    notifyOwner: z.boolean(),
    /** A copy of their answers to the respondent, at the address they typed in the form's email question. */
    respondentCopy: z.boolean(),
  })
  .strict();
export type FormNotifications = z.infer<typeof FormNotificationsSchema>;

/** The GET answer: the settings, and whether the form has an email question (without one no copy can be sent). */
export const FormNotificationsViewSchema = FormNotificationsSchema.extend({ hasEmailQuestion: z.boolean() });
export type FormNotificationsView = z.infer<typeof FormNotificationsViewSchema>;
