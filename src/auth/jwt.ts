/**
 * User JWTs: HS256 with the installation's secret, payload `{ id, v }` (Strapi's users-
 * permissions plugin issues `{ id }`; `v` is the user's token version, see
 * 0004_token_version.sql). Any other algorithm is refused, and so is a JWT without `exp`:
 * a token that never expires could not be taken back by anything but a password change.
 */
import { jwtVerify, SignJWT } from 'jose';

export interface JwtClaims {
  id: number;
  /** The user's token version when it was issued; 0 for JWTs without `v` (Strapi's). */
  version: number;
}

export class Jwt {
  private key: Uint8Array;

  constructor(
    secret: string,
    /** How long an issued JWT lives: seconds, or `30d` style (users-permissions' `jwt.expiresIn`). */
    private expiresIn: string | number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  issue(userId: number, version = 0): Promise<string> {
    return (
      new SignJWT({ id: userId, v: version })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt()
        // A number is seconds from now (jsonwebtoken's reading), where jose would take it as a timestamp.
        .setExpirationTime(typeof this.expiresIn === 'number' ? `${this.expiresIn}s` : this.expiresIn)
        .sign(this.key)
    );
  }

  /** The claims of a valid token; undefined when tampered, expired, without `exp` or not HS256. */
  async verify(token: string): Promise<JwtClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
      const { id, v = 0 } = payload as { id?: unknown; v?: unknown };
      if (!Number.isSafeInteger(id) || !Number.isSafeInteger(v) || (v as number) < 0) return undefined;
      return { id: id as number, version: v as number };
    } catch {
      return undefined;
    }
  }
}

/** Three base64url parts: worth trying as a JWT rather than as an API token. */
export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
