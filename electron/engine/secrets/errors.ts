export type KeychainOperation = 'read' | 'save' | 'delete' | 'probe';

/** The OS keychain cannot be used here. The message never carries the secret. */
export class KeychainUnavailable extends Error {
  override readonly name = 'KeychainUnavailable';

  constructor(
    readonly operation: KeychainOperation,
    /** What the platform said, with any secret removed. */
    readonly reason: string,
    readonly account?: string,
  ) {
    super(
      `The OS keychain could not be reached${describeOperation(operation, account)}: ${reason}. ` +
        'Unlock or start your system keychain (on Linux, a Secret Service such as GNOME Keyring or KWallet in a desktop session) ' +
        'and try again, or keep the secret for this session only.',
    );
  }
}

function describeOperation(operation: KeychainOperation, account: string | undefined): string {
  const whose = account === undefined ? '' : ` for profile "${account}"`;
  switch (operation) {
    case 'read':
      return ` while reading the secret${whose}`;
    case 'save':
      return ` while saving the secret${whose}`;
    case 'delete':
      return ` while deleting the secret${whose}`;
    case 'probe':
      return '';
  }
}
