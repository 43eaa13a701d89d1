// Secret-like names: the last word decides; `key` needs a qualifier that is not an identifier kind.
import { describe, expect, it } from "vitest";
import { isSecretName, nameWords } from "../../../src/core/redact";

describe("isSecretName", () => {
  it("splits snake, kebab, dot and camel case", () => {
    expect(nameWords("OPENAI_API_KEY")).toEqual(["openai", "api", "key"]);
    expect(nameWords("x-api-key")).toEqual(["x", "api", "key"]);
    expect(nameWords("accessToken")).toEqual(["access", "token"]);
    expect(nameWords("APIKey")).toEqual(["api", "key"]);
    expect(nameWords("spring.datasource.password")).toEqual(["spring", "datasource", "password"]);
  });

  it.each([
    "OPENAI_API_KEY",
    "STRIPE_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "client_secret",
    "DB_PASSWORD",
    "PGPASSWORD",
    "db_pass",
    "apiKey",
    "APIKEY",
    "accessToken",
    "id_token",
    "x-api-key",
    "Authorization",
    "SENTRY_DSN",
    "private_key",
    "passphrase",
    "credentials",
  ])("%s is secret", (name) => expect(isSecretName(name)).toBe(true));

  it.each([
    "PASSWORD_MIN_LENGTH",
    "max_tokens",
    "totalTokens",
    "prompt_cache_key",
    "primary_key",
    "public_key",
    "key",
    "monkey",
    "hotkey",
    "token_type",
    "tokenizer",
    "access_key_id",
    "password_hash",
    "turnKey",
    "",
  ])("%s is not secret", (name) => expect(isSecretName(name)).toBe(false));
});
