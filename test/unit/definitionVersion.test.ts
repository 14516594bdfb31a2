/**
 * The agent-mode server definition's version: it follows the tool list only while no relay is connected, because
 * VS Code stops a running MCP server whose definition changed (and leaves its stale tools listed).
 */
import { describe, expect, it } from 'vitest';
import { DefinitionVersion, OFF } from '../../src/mcp/definitionVersion';

describe('DefinitionVersion', () => {
  it('follows the tool list while no relay is connected', () => {
    const v = new DefinitionVersion('a');
    expect(v.update('a', 0)).toEqual({ fireChanged: false, refreshLive: false });
    expect(v.update('b', 0)).toEqual({ fireChanged: true, refreshLive: false });
    expect(v.current).toBe('b');
  });

  it('keeps the version while a relay is connected: the live server hears list_changed instead of being stopped', () => {
    const v = new DefinitionVersion('a');
    expect(v.update('b', 1)).toEqual({ fireChanged: false, refreshLive: true });
    expect(v.current).toBe('a');
    // Back to the published list while live: nothing to publish, the relay still checks its own list.
    expect(v.update('a', 1)).toEqual({ fireChanged: false, refreshLive: true });
    // The relay gone with the list changed meanwhile: the version catches up (VS Code's cache is outdated).
    expect(v.update('c', 0)).toEqual({ fireChanged: true, refreshLive: false });
    expect(v.current).toBe('c');
  });

  it('turning agent tools off or on changes the definition even while a relay is connected', () => {
    const v = new DefinitionVersion('a');
    expect(v.update(OFF, 1)).toEqual({ fireChanged: true, refreshLive: true });
    expect(v.current).toBe(OFF);
    expect(v.update('a', 0)).toEqual({ fireChanged: true, refreshLive: false });
    expect(v.current).toBe('a');
  });
});
