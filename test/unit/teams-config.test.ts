import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";

const APP = { MICROSOFT_APP_ID: "6a1b2c3d-0000-4000-8000-00000000f011", MICROSOFT_APP_PASSWORD: "secret" };

function problemsOf(environment: Record<string, string>): unknown {
  try {
    loadConfig(environment, "/tmp");
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("Teams configuration", () => {
  it("is a single-tenant bot by default, with its admins", () => {
    const config = loadConfig(
      { ...APP, MICROSOFT_APP_TENANT_ID: "tenant-1", FOLIO_TEAMS_ADMINS: "aad-1, aad-2" },
      "/tmp",
    );
    expect(config.teams).toEqual({
      appId: APP.MICROSOFT_APP_ID,
      appPassword: "secret",
      tenantId: "tenant-1",
      appType: "single-tenant",
      adminUserIds: ["aad-1", "aad-2"],
    });
  });

  it("needs the tenant id for a single-tenant bot, not for a multi-tenant one", () => {
    expect(problemsOf(APP)).toEqual([
      {
        variable: "MICROSOFT_APP_TENANT_ID",
        problem:
          "is required for a single-tenant bot (the default): set your Entra tenant id, or MICROSOFT_APP_TYPE=MultiTenant",
      },
    ]);
    expect(loadConfig({ ...APP, MICROSOFT_APP_TYPE: "MultiTenant" }, "/tmp").teams?.appType).toBe("multi-tenant");
  });

  it("names a bad app type", () => {
    expect(problemsOf({ ...APP, MICROSOFT_APP_TYPE: "UserAssignedMSI" })).toEqual([
      {
        variable: "MICROSOFT_APP_TYPE",
        problem: "must be SingleTenant or MultiTenant (as in the Azure Bot registration)",
      },
    ]);
  });
});
