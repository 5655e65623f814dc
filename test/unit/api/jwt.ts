/** A JWT-shaped token with this payload (the signature is not checked by the client). */
export const jwt = (payload: unknown) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
