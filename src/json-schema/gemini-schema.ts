/** Gemini `Type` values (OpenAPI types, upper case as the API's enum names). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';

/**
 * Gemini `Schema` (OpenAPI 3.0 subset). Integer-valued limits are strings: the API declares
 * them int64, whose JSON form is a string (the SDK types them `string`).
 */
export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
  default?: unknown;
  example?: unknown;
}
