import { CREDENTIAL_KINDS, type CredentialKind } from '../../../shared/model';
import { parseCommandArgs } from '../args';
import { CliError } from '../cli-error';
import { openCliSession } from '../connect';
import { EXIT_CODES, exitCodeFor } from '../exit-codes';
import { readSecret } from '../prompt';

const SECRET_LABEL: Record<CredentialKind, string> = {
  service_account: 'Client secret',
  password: 'Password',
  api_key: 'API key',
};

export async function loginCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    'base-url': { type: 'string' },
    'org-id': { type: 'string' },
    kind: { type: 'string' },
    login: { type: 'string' },
    name: { type: 'string' },
    id: { type: 'string' },
  });
  const kind = values.kind as CredentialKind | undefined;
  if (!kind || !CREDENTIAL_KINDS.includes(kind)) throw CliError.usage(`--kind takes one of: ${CREDENTIAL_KINDS.join(', ')}.`);
  if (!values['base-url'] || !values['org-id']) throw CliError.usage('--base-url and --org-id are both needed.');
  if (kind !== 'api_key' && !values.login) {
    throw CliError.usage(`--login is needed: the ${kind === 'password' ? 'username' : 'client id'}.`);
  }
  const secret = await readSecret(SECRET_LABEL[kind]);
  if (!secret) throw new CliError(`No ${SECRET_LABEL[kind].toLowerCase()} was given.`);

  const cli = await openCliSession({ needsKeychain: true });
  try {
    const profile = await cli.call('profiles.save', {
      ...(values.id ? { id: values.id } : {}),
      name: values.name ?? new URL(values['base-url']).host,
      baseUrl: values['base-url'],
      orgId: values['org-id'],
      kind,
      login: kind === 'api_key' ? null : values.login!,
      secret,
    });
    const test = await cli.call('profiles.test', { id: profile.id });
    await cli.call('profiles.select', { id: profile.id });
    process.stdout.write(`Saved profile ${profile.id} (${profile.name}); the secret is in the OS keychain.\n`);
    if (!test.ok) {
      process.stderr.write(`But the connection test failed: ${test.reason}\n`);
      return test.error ? exitCodeFor(test.error) : EXIT_CODES.failed;
    }
    process.stdout.write('Connection test passed.\n');
    return 0;
  } finally {
    await cli.close();
  }
}

export async function logoutCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { profile: { type: 'string' } });
  const cli = await openCliSession();
  try {
    const id = values.profile ?? (await cli.call('settings.get', {})).activeProfileId;
    if (!id) throw new CliError('No active profile to log out of; name one with --profile ID.');
    await cli.call('profiles.remove', { id });
    process.stdout.write(`Removed profile ${id} and its secret.\n`);
    return 0;
  } finally {
    await cli.close();
  }
}
