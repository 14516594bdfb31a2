/**
 * An agent's JSON configuration file of the user's, read before we change it: its object, or undefined when there is
 * no file; anything else is refused by name and the file left as it is (the installers and the MCP writers).
 */
import { isObject } from '../protocol/json';

/** The file's JSON object, or undefined when there is no file (`text` undefined). */
export function parseObject(file: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not JSON (${(e as Error).message}): left as it is`);
  }
  if (!isObject(json)) throw new Error(`${file} is not a JSON object: left as it is`);
  return json;
}

/** `parseObject` of an MCP configuration: its `mcpServers`, when present, an object too. */
export function parseMcpObject(file: string, text: string | undefined): Record<string, unknown> | undefined {
  const json = parseObject(file, text);
  if (json?.mcpServers !== undefined && !isObject(json.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object: left as it is`);
  return json;
}
