// The unit tier's own rule (test/support/unit-guard.ts): a test here that starts a program or opens a database fails, naming where it belongs.
import { execFile, spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db.js';

describe('the unit tier', () => {
  it('refuses to start a program', () => {
    expect(() => spawn('true')).toThrow(/a unit test uses a program \(child_process\.spawn\): it belongs in test\/integration/);
    expect(() => execFile('true')).toThrow(/child_process\.execFile/);
  });

  it('refuses a database, a server or the embedded one', async () => {
    await expect(new pg.Client({ connectionString: 'postgresql://127.0.0.1:1/none' }).connect()).rejects.toThrow(/PostgreSQL/);
    await expect(createTestDatabase()).rejects.toThrow(/a unit test uses (PostgreSQL|the embedded database)/);
  });
});
