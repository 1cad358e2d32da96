import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import prettier from "eslint-config-prettier";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".next-*/",
      "lib/db/generated/",
      "data/",
      "test-results/",
      "bench-results/",
      "next-env.d.ts",
      "public/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": [
        "error",
        { "ts-ignore": true, "ts-expect-error": true, "ts-nocheck": true },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Presentational components never reach the database or the server's secrets.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/lib/db/**", "@/lib/db/**"],
              message: "components are presentational: fetch through a hook, not the database",
            },
          ],
        },
      ],
    },
  },
  {
    // Vitest fixtures (tests/helpers/fixtures.ts: useTestDatabase, useTestServer) register hooks
    // where they are called, at a test file's top level; they are not React hooks, and no React
    // code lives in these folders.
    files: ["tests/integration/**/*.ts", "tests/e2e/**/*.ts", "tests/helpers/**/*.ts"],
    rules: Object.fromEntries(Object.keys(reactHooks.configs.recommended.rules).map((rule) => [rule, "off"])),
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
  // Layout is Prettier's (`npm run format`); ESLint keeps to correctness.
  prettier,
);
