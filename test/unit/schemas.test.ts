import { generateKeyPairSync } from 'node:crypto';
import {
  createConnectionBody,
  createAppBody,
  createRobotBody,
  dedupBody,
  listQuery,
  verificationBody,
} from '../../src/contract/requests';

describe('createAppBody', () => {
  test('bodyFormat defaults to json', () => {
    expect(createAppBody.parse({ name: 'Shop', supportsInboundTrigger: true })).toEqual({
      name: 'Shop',
      supportsInboundTrigger: true,
      bodyFormat: 'json',
    });
  });

  test.each(['json', 'xml', 'csv', 'text'])('bodyFormat %s is accepted', (bodyFormat) => {
    expect(createAppBody.parse({ name: 'Shop', supportsInboundTrigger: true, bodyFormat }).bodyFormat).toBe(bodyFormat);
  });

  test('an unknown bodyFormat is rejected', () => {
    expect(createAppBody.safeParse({ name: 'Shop', supportsInboundTrigger: true, bodyFormat: 'yaml' }).success).toBe(
      false,
    );
  });

  test('extra fields are rejected', () => {
    expect(createAppBody.safeParse({ name: 'Shop', supportsInboundTrigger: true, extra: 1 }).success).toBe(false);
  });

  test('the name is trimmed', () => {
    expect(createAppBody.parse({ name: '  Shop  ', supportsInboundTrigger: false }).name).toBe('Shop');
  });

  test('a blank name is rejected', () => {
    expect(createAppBody.safeParse({ name: '   ', supportsInboundTrigger: false }).success).toBe(false);
  });
});

describe('header names chosen in an app', () => {
  test.each(['constructor', '__proto__', 'prototype'])('%s is refused for dedup and an HMAC scheme', (header) => {
    expect(dedupBody.safeParse({ key: 'header', header }).success).toBe(false);
    const hmac = { scheme: 'hmac', secret: 'x'.repeat(32), header, algorithm: 'sha256', encoding: 'hex' };
    expect(verificationBody.safeParse(hmac).success).toBe(false);
  });
});

describe('createRobotBody', () => {
  test('a trigger with appId only is accepted', () => {
    const parsed = createRobotBody.parse({ name: 'Robot', trigger: { appId: 'app1' } });
    expect(parsed.trigger).toEqual({ appId: 'app1' });
    expect(parsed.steps).toEqual([]);
  });

  test('a trigger with connectionId only is accepted', () => {
    expect(createRobotBody.safeParse({ name: 'Robot', trigger: { connectionId: 'conn1' } }).success).toBe(true);
  });

  test('a trigger with both appId and connectionId is rejected', () => {
    expect(
      createRobotBody.safeParse({ name: 'Robot', trigger: { appId: 'app1', connectionId: 'conn1' } }).success,
    ).toBe(false);
  });

  test('a trigger with neither appId nor connectionId is rejected', () => {
    expect(createRobotBody.safeParse({ name: 'Robot', trigger: {} }).success).toBe(false);
  });

  test('events with a connectionId are accepted', () => {
    const parsed = createRobotBody.parse({
      name: 'Robot',
      trigger: { connectionId: 'conn1', events: ['charge.succeeded'] },
    });
    expect(parsed.trigger.events).toEqual(['charge.succeeded']);
  });

  test('events with an appId are rejected', () => {
    const result = createRobotBody.safeParse({
      name: 'Robot',
      trigger: { appId: 'app1', events: ['charge.succeeded'] },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('trigger.events');
  });

  test('extra trigger fields are rejected', () => {
    expect(createRobotBody.safeParse({ name: 'Robot', trigger: { appId: 'app1', secret: 'x' } }).success).toBe(false);
  });

  test('a compose step with a JSON template is accepted', () => {
    const steps = [
      { name: 'Compose', type: 'compose', template: { id: '{{trigger.id}}', tags: ['a', 1, null, true] } },
    ];
    expect(createRobotBody.parse({ name: 'Robot', trigger: { appId: 'app1' }, steps }).steps).toEqual(steps);
  });

  test('a step of another type is rejected', () => {
    const steps = [{ name: 'Send', type: 'email', template: {} }];
    expect(createRobotBody.safeParse({ name: 'Robot', trigger: { appId: 'app1' }, steps }).success).toBe(false);
  });
});

describe('listQuery', () => {
  test('limit defaults to 50', () => {
    expect(listQuery.parse({}).limit).toBe(50);
  });

  test('limit is read from a query string value', () => {
    expect(listQuery.parse({ limit: '20' }).limit).toBe(20);
  });

  test.each(['1', '1000'])('limit %s is accepted', (limit) => {
    expect(listQuery.parse({ limit }).limit).toBe(Number(limit));
  });

  test.each(['0', '1001', '-1', '2.5', 'ten'])('limit %s is rejected', (limit) => {
    expect(listQuery.safeParse({ limit }).success).toBe(false);
  });
});

describe('verificationBody', () => {
  const standard = (secret: string) => verificationBody.safeParse({ scheme: 'standard-webhooks', secret }).success;

  test('a standard-webhooks secret is whsec_ followed by base64 the package can read', () => {
    expect(standard('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true);
    expect(standard('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true);
  });

  test('a standard-webhooks public key is whpk_ followed by the base64 of 32 bytes (Ed25519, v1a)', () => {
    const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    expect(standard('whpk_' + raw.toString('base64'))).toBe(true);
    expect(standard('whpk_' + raw.subarray(1).toString('base64'))).toBe(false);
  });

  test.each(['whsec_abc', 'whsec_ab=cd', 'whsec_', 'whsec_not base64'])(
    'a secret the standard-webhooks package cannot read is refused: %s',
    (secret) => {
      expect(standard(secret)).toBe(false);
    },
  );

  test.each(['github', 'shopify', 'slack'])(
    'a %s secret shorter than 16 characters is refused, naming the rule',
    (scheme) => {
      const short = verificationBody.safeParse({ scheme, secret: 'x'.repeat(15) });
      expect(short.success).toBe(false);
      expect(short.error?.issues[0].message).toBe('must be at least 16 characters');
      expect(verificationBody.safeParse({ scheme, secret: 'x'.repeat(16) }).success).toBe(true);
    },
  );

  test('a payment provider signing secret shorter than 16 characters is refused', () => {
    expect(createConnectionBody.safeParse({ provider: 'stripe', name: 'P', signingSecret: 'whsec_1' }).success).toBe(
      false,
    );
    const long = { provider: 'stripe', name: 'P', signingSecret: 'whsec_' + 'k'.repeat(10) };
    expect(createConnectionBody.safeParse(long).success).toBe(true);
  });
});
