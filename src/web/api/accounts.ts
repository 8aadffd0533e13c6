import { queryOptions, useMutation } from '@tanstack/react-query';
import type {
  EmailBody,
  LoginBody,
  LoginResponse,
  Profile,
  SignUpBody,
  StatusResponse,
  UpdatePasswordBody,
} from '#common/accounts.ts';
import { api } from './client.ts';

export const signUp = (body: SignUpBody) =>
  api<{ data: Profile }>('/api/v1/signUp', { method: 'POST', body });
export const logIn = (body: LoginBody) => api<LoginResponse>('/api/v1/login', { method: 'POST', body });
export const fetchProfile = (id: string) => api<Profile>(`/api/v1/${id}`, { owner: true });
export const sendOtp = (body: EmailBody) => api<StatusResponse>('/api/v1/sendOtp', { method: 'POST', body });
export const updatePassword = (body: UpdatePasswordBody) =>
  api<StatusResponse>('/api/v1/updatePassword', { method: 'POST', body });
export const resendVerification = (body: EmailBody) =>
  api<StatusResponse>('/api/v1/resendVerification', { method: 'POST', body });
export const logOut = () => api<StatusResponse>('/api/v1/logout', { method: 'POST', owner: true, body: {} });

export const profileQuery = (id: string) =>
  queryOptions({ queryKey: ['profile', id], queryFn: () => fetchProfile(id) });

export const useSignUp = () => useMutation({ mutationFn: signUp });
export const useLogIn = () => useMutation({ mutationFn: logIn });
export const useSendOtp = () => useMutation({ mutationFn: sendOtp });
export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
