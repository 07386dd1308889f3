import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve("scripts/teams-package.mjs");
const workDir = mkdtempSync(path.join(os.tmpdir(), "folio-teams-package-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function pngSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

describe("npm run teams:package", () => {
  it("zips a filled manifest and the two icons Teams requires", () => {
    const zipPath = path.join(workDir, "folio.zip");
    execFileSync(process.execPath, [script, zipPath], {
      env: {
        ...process.env,
        MICROSOFT_APP_ID: "6A1B2C3D-0000-4000-8000-00000000F011",
        FOLIO_PUBLIC_URL: "https://folio.example.com/",
        TEAMS_PRIVACY_URL: "https://intranet.example.com/privacy",
        TEAMS_TERMS_URL: "https://intranet.example.com/terms",
      },
    });
    const files = unzipSync(readFileSync(zipPath));
    expect(Object.keys(files).sort()).toEqual(["color.png", "manifest.json", "outline.png"]);
    const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"]));
    expect(manifest.manifestVersion).toBe("1.19");
    expect(manifest.id).toBe("6a1b2c3d-0000-4000-8000-00000000f011");
    expect(manifest.validDomains).toEqual(["folio.example.com"]);
    expect(manifest.developer).toEqual({
      name: "Folio",
      websiteUrl: "https://folio.example.com",
      privacyUrl: "https://intranet.example.com/privacy",
      termsOfUseUrl: "https://intranet.example.com/terms",
    });
    const [bot] = manifest.bots;
    expect(bot).toMatchObject({
      botId: "6a1b2c3d-0000-4000-8000-00000000f011",
      scopes: ["personal", "team", "groupChat"],
      supportsFiles: true,
    });
    expect(bot.commandLists[0].commands.map((command: { title: string }) => command.title)).toEqual([
      "help",
      "docs",
      "forget",
    ]);
    expect(pngSize(files["color.png"] as Uint8Array)).toEqual([192, 192]);
    expect(pngSize(files["outline.png"] as Uint8Array)).toEqual([32, 32]);
  });

  it("refuses to build without a GUID app id, an https public URL and real privacy and terms pages, saying which", () => {
    const result = spawnSync(process.execPath, [script, path.join(workDir, "bad.zip")], {
      env: {
        ...process.env,
        MICROSOFT_APP_ID: "folio",
        FOLIO_PUBLIC_URL: "http://localhost:3000",
        TEAMS_PRIVACY_URL: "",
        TEAMS_TERMS_URL: "",
      },
      encoding: "utf8",
    });
    expect(result.status).toBe(3);
    expect(result.stderr).toBe(
      "teams:package: MICROSOFT_APP_ID must be the Azure Bot's Microsoft App ID (a GUID); FOLIO_PUBLIC_URL must start with https:// (Teams opens citation links from it); TEAMS_PRIVACY_URL must be your organisation's https:// privacy statement (Teams shows it on the app's page; Folio's own address serves only the console); TEAMS_TERMS_URL must be your organisation's https:// terms of use (Teams shows it on the app's page; Folio's own address serves only the console)\n",
    );
  });
});
