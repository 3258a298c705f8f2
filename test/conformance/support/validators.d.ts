// Just enough typing of GS1's Digital Link toolkit (the package ships JavaScript only).
declare module 'digital-link.js' {
  interface DigitalLinkInstance {
    isValid(): boolean;
    isCheckDigitValid(): boolean;
    getValidationTrace(): { trace: { rule: string; match: string; remainder: string }[]; success: boolean };
    toWebUriString(): string;
    getLinkType(): string | undefined;
    getIdentifier(): Record<string, string>;
    getKeyQualifiers(): Record<string, string>;
  }
  const digitalLinkJs: {
    DigitalLink(input?: string | object): DigitalLinkInstance;
  };
  export default digitalLinkJs;
}
