/**
 * User JWTs: HS256 with the installation's secret, payload `{ id }`, as Strapi's
 * users-permissions plugin issues them. Any other algorithm is refused.
 */
import { jwtVerify, SignJWT } from 'jose';

export class Jwt {
  private key: Uint8Array;

  constructor(
    secret: string,
    private expiresIn: string = process.env.FOLIO_JWT_EXPIRES_IN || '30d',
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  issue(userId: number): Promise<string> {
    return new SignJWT({ id: userId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(this.expiresIn)
      .sign(this.key);
  }

  /** The user id of a valid token; undefined when tampered, expired or not HS256. */
  async verify(token: string): Promise<number | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      return typeof payload.id === 'number' && Number.isInteger(payload.id) ? payload.id : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Three base64url parts: worth trying as a JWT rather than as an API token. */
export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
