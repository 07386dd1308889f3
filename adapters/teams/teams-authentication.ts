/**
 * Bot Framework authentication for the Teams adapter, both ways. Incoming: the SDK's own JWT
 * validation (OpenID metadata, signing keys and their channel endorsements, issuer, audience = the
 * app id, expiry, service URL claim), with every token it cannot verify reported as 401 — the SDK
 * lets a bad signature, or signing keys it could not fetch, surface as a plain error, which its
 * CloudAdapter would answer with 500 and the upstream error's text.
 * Outgoing: the bot's access token for the Bot Connector, fetched with the OAuth 2.0
 * client-credentials grant from the app's Entra tenant (or botframework.com for multi-tenant apps)
 * and cached by the SDK until shortly before it expires. Both endpoints can be pointed elsewhere,
 * which is how the tests run offline against local stand-ins.
 */
import { type Activity, ConfigurationBotFrameworkAuthentication } from "botbuilder";
import {
  AppCredentials,
  type AuthenticateRequestResult,
  AuthenticationConstants,
  AuthenticationError,
  type AuthenticatorResult,
  ServiceClientCredentialsFactory,
} from "botframework-connector";
import { FolioError } from "../../src/errors.js";

export type TeamsAppType = "single-tenant" | "multi-tenant";

export type TeamsEndpoints = {
  /** OpenID metadata of the Bot Framework channel service (its `jwks_uri` lists the signing keys). */
  openIdMetadataUrl: string;
  /** OpenID metadata used for Emulator / Entra-issued tokens. */
  emulatorOpenIdMetadataUrl: string;
  /** Base of the Entra login service; `/<tenant>/oauth2/v2.0/token` is appended. */
  loginBaseUrl: string;
};

export const PUBLIC_CLOUD_ENDPOINTS: TeamsEndpoints = {
  openIdMetadataUrl: AuthenticationConstants.ToBotFromChannelOpenIdMetadataUrl,
  emulatorOpenIdMetadataUrl: AuthenticationConstants.ToBotFromEmulatorOpenIdMetadataUrl,
  loginBaseUrl: AuthenticationConstants.ToChannelFromBotLoginUrlPrefix.replace(/\/+$/, ""),
};

export type TeamsCredentials = {
  appId: string;
  appPassword: string;
  tenantId: string | null;
  appType: TeamsAppType;
};

/** The tenant whose token endpoint issues the bot's tokens. */
export function tokenTenant(credentials: TeamsCredentials): string {
  return credentials.appType === "single-tenant" && credentials.tenantId
    ? credentials.tenantId
    : AuthenticationConstants.DefaultChannelAuthTenant;
}

/** One access token from the client-credentials grant. */
class ClientSecretCredentials extends AppCredentials {
  constructor(
    private readonly credentials: TeamsCredentials,
    private readonly tokenUrl: string,
    scope: string,
  ) {
    super(credentials.appId, tokenTenant(credentials), scope);
  }

  protected override async refreshToken(): Promise<AuthenticatorResult> {
    const scope = this.oAuthScope.endsWith("/.default") ? this.oAuthScope : `${this.oAuthScope}/.default`;
    const response = await fetch(this.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: this.credentials.appId,
        client_secret: this.credentials.appPassword,
        scope,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof body.access_token !== "string") {
      const reason = typeof body.error === "string" ? ` (${body.error})` : "";
      throw new FolioError(
        "teams_token_failed",
        `Microsoft Entra refused the bot's credentials: HTTP ${response.status}${reason}. Check MICROSOFT_APP_ID, MICROSOFT_APP_PASSWORD, MICROSOFT_APP_TENANT_ID and MICROSOFT_APP_TYPE against the Azure Bot registration.`,
        { retryable: response.status >= 500 || response.status === 429 },
      );
    }
    const seconds = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in ?? 3600);
    return { accessToken: body.access_token, expiresOn: new Date(Date.now() + seconds * 1000) };
  }
}

/** Tells the SDK which app this is and how to get its tokens. */
class ClientSecretCredentialsFactory extends ServiceClientCredentialsFactory {
  constructor(
    private readonly credentials: TeamsCredentials,
    private readonly loginBaseUrl: string,
  ) {
    super();
  }

  override async isValidAppId(appId: string): Promise<boolean> {
    return appId === this.credentials.appId;
  }

  override async isAuthenticationDisabled(): Promise<boolean> {
    // Never: an app id is required to enable the adapter, so every request is authenticated.
    return false;
  }

  override async createCredentials(appId: string, audience: string | undefined): Promise<AppCredentials> {
    if (appId !== this.credentials.appId) {
      throw new FolioError(
        "teams_unknown_app",
        `Activity for app ${appId}, but this bot is ${this.credentials.appId}.`,
      );
    }
    const tokenUrl = `${this.loginBaseUrl}/${encodeURIComponent(tokenTenant(this.credentials))}/oauth2/v2.0/token`;
    return new ClientSecretCredentials(
      this.credentials,
      tokenUrl,
      audience || AuthenticationConstants.ToChannelFromBotOAuthScope,
    );
  }
}

/** jsonwebtoken's verification failures: a token that does not verify, which is a 401. */
const TOKEN_ERRORS = new Set(["JsonWebTokenError", "TokenExpiredError", "NotBeforeError"]);

/** A token Folio could not verify: always 401, with a message that carries nothing from upstream. */
export function unverifiedToken(cause: unknown, reason: "invalid" | "keys_unavailable"): AuthenticationError {
  const error = new AuthenticationError(
    reason === "invalid" ? "Unauthorized: the token does not verify." : "Unauthorized: the token could not be checked.",
    401,
  );
  (error as Error & { cause?: unknown; reason?: string }).cause = cause;
  (error as Error & { reason?: string }).reason = reason;
  return error;
}

class StrictBotFrameworkAuthentication extends ConfigurationBotFrameworkAuthentication {
  override async authenticateRequest(activity: Activity, authHeader: string): Promise<AuthenticateRequestResult> {
    try {
      return await super.authenticateRequest(activity, authHeader);
    } catch (error) {
      if (error instanceof AuthenticationError && error.statusCode === 401) throw unverifiedToken(error, "invalid");
      if (error instanceof Error && TOKEN_ERRORS.has(error.name)) throw unverifiedToken(error, "invalid");
      // Anything else (the SDK's own 500 included) means Microsoft's signing keys could not be fetched
      // (their outage, no route out): the token cannot be checked, so it is refused like a bad one —
      // 401, not 500, and not the upstream error's text.
      throw unverifiedToken(error, "keys_unavailable");
    }
  }
}

export function createTeamsAuthentication(
  credentials: TeamsCredentials,
  endpoints: TeamsEndpoints = PUBLIC_CLOUD_ENDPOINTS,
): ConfigurationBotFrameworkAuthentication {
  const loginBaseUrl = endpoints.loginBaseUrl.replace(/\/+$/, "");
  return new StrictBotFrameworkAuthentication(
    {
      MicrosoftAppId: credentials.appId,
      // Every endpoint spelled out: given one, the SDK takes them all as intended.
      ValidateAuthority: true,
      ToChannelFromBotLoginUrl: `${loginBaseUrl}/${tokenTenant(credentials)}`,
      ToChannelFromBotOAuthScope: AuthenticationConstants.ToChannelFromBotOAuthScope,
      ToBotFromChannelTokenIssuer: AuthenticationConstants.ToBotFromChannelTokenIssuer,
      OAuthUrl: AuthenticationConstants.OAuthUrl,
      ToBotFromChannelOpenIdMetadataUrl: endpoints.openIdMetadataUrl,
      ToBotFromEmulatorOpenIdMetadataUrl: endpoints.emulatorOpenIdMetadataUrl,
      CallerId: "urn:botframework:azure",
    },
    new ClientSecretCredentialsFactory(credentials, loginBaseUrl),
  );
}
