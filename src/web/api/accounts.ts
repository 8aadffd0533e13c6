import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  LoginResponseSchema,
  ProfileSchema,
  SignUpResponseSchema,
  type ChangePasswordBody,
  type EmailBody,
  type LoginBody,
  type Profile,
  type ResetPasswordBody,
  type SignUpBody,
  type StatusResponse,
  type UpdatePasswordBody,
  type UpdateProfileBody,
} from '#common/accounts.ts';
import { api } from './client.ts';

// The answers the session is built from are checked, so a wrong shape fails here and not deep in a page.
export const signUp = (body: SignUpBody) =>
  api<unknown>('/api/v1/signUp', { method: 'POST', body }).then((data) => SignUpResponseSchema.parse(data));
export const logIn = (body: LoginBody) =>
  api<unknown>('/api/v1/login', { method: 'POST', body }).then((data) => LoginResponseSchema.parse(data));
export const fetchProfile = (id: string) =>
  api<unknown>(`/api/v1/${encodeURIComponent(id)}`, { owner: true }).then((data) =>
    ProfileSchema.parse(data),
  );
export const sendOtp = (body: EmailBody) => api<StatusResponse>('/api/v1/sendOtp', { method: 'POST', body });
export const updatePassword = (body: UpdatePasswordBody) =>
  api<StatusResponse>('/api/v1/updatePassword', { method: 'POST', body });
export const resetPassword = (body: ResetPasswordBody) =>
  api<StatusResponse>('/api/v1/resetPassword', { method: 'POST', body });
export const resendVerification = (body: EmailBody) =>
  api<StatusResponse>('/api/v1/resendVerification', { method: 'POST', body });
export const logOut = () => api<StatusResponse>('/api/v1/logout', { method: 'POST', owner: true, body: {} });
export const updateProfile = (body: UpdateProfileBody) =>
  api<Profile>('/api/v1/profile', { method: 'PUT', body, owner: true });
export const changePassword = (body: ChangePasswordBody) =>
  api('/api/v1/changePassword', { method: 'POST', body, owner: true });

export const profileQuery = (id: string) =>
  queryOptions({ queryKey: ['profile', id], queryFn: () => fetchProfile(id) });

export const useSignUp = () => useMutation({ mutationFn: signUp });
export const useLogIn = () => useMutation({ mutationFn: logIn });
export const useSendOtp = () => useMutation({ mutationFn: sendOtp });
export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
