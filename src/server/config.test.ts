import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:3000',
      uploadMaxBytes: 10 * 1024 * 1024,
      formTimezone: 'Asia/Kolkata',
      trustProxy: false,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('lists every bad variable in one message', () => {
    const load = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'http://mail',
        FORM_TIMEZONE: 'Mars/Base',
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      /PORT:[\s\S]*DATABASE_URL: must be a postgres[\s\S]*SMTP_URL: must be an smtp[\s\S]*FORM_TIMEZONE/,
    );
  });

  it('derives PUBLIC_URL from PORT and scales rate limits', () => {
    const config = loadConfig({ PORT: '8080', RATE_LIMIT_MULTIPLIER: '10', PUBLIC_URL: '' });
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.rateLimits.loginPerEmail.max).toBe(100);
  });
});
