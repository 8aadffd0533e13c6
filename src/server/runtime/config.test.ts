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
      trustProxy: 0,
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

  it('refuses an SMTP_URL without a server rather than sending to localhost', () => {
    for (const SMTP_URL of ['smtp://', 'smtp:/bad@@', 'smtps:///x']) {
      expect(() => loadConfig({ SMTP_URL }), SMTP_URL).toThrow(ConfigError);
      expect(() => loadConfig({ SMTP_URL }), SMTP_URL).toThrow(/SMTP_URL: must name the server/);
    }
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.com:587' }).smtpUrl).toBe(
      'smtp://u:p@mail.example.com:587',
    );
  });

  it('reads WEBHOOK_ALLOW_PRIVATE as a boolean, off by default', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: ' TRUE ' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE: must be true or false/,
    );
  });

  it('derives PUBLIC_URL from PORT and scales rate limits', () => {
    const config = loadConfig({ PORT: '8080', RATE_LIMIT_MULTIPLIER: '10', PUBLIC_URL: '' });
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.rateLimits.loginPerEmail.max).toBe(100);
  });

  it("reads TRUST_PROXY as a hop count or the proxies' addresses, and true as one hop", () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trust('')).toBe(0);
    expect(trust('false')).toBe(0);
    expect(trust('0')).toBe(0);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('true')).toBe(1);
    expect(trust(' 10.0.0.5, 192.168.0.0/16 ,loopback,fd00::/8 ')).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
  });

  it.each([
    'yes',
    '-1',
    '1.5',
    '11',
    '300.1.1.1',
    '10.0.0.0/33',
    '10.0.0.0/x',
    '0.0.0.0/0',
    '::/0',
    'nginx',
    '10.0.0.1,',
  ])('stops on TRUST_PROXY=%j with a message naming the variable', (value) => {
    const load = () => loadConfig({ TRUST_PROXY: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('reads the start-up wait and the drain in seconds, and stops on a value out of range naming each', () => {
    expect(loadConfig({})).toMatchObject({ startupWaitMs: 120_000, shutdownDrainMs: 5_000 });
    expect(loadConfig({ STARTUP_WAIT_SECONDS: '0', SHUTDOWN_DRAIN_SECONDS: '30' })).toMatchObject({
      startupWaitMs: 0,
      shutdownDrainMs: 30_000,
    });
    const load = () => loadConfig({ STARTUP_WAIT_SECONDS: 'soon', SHUTDOWN_DRAIN_SECONDS: '-1' });
    expect(load).toThrow(/SHUTDOWN_DRAIN_SECONDS: must be a number of seconds from 0 to 300$/m);
    expect(load).toThrow(/STARTUP_WAIT_SECONDS: must be a number of seconds from 0 to 3600$/m);
  });
});
