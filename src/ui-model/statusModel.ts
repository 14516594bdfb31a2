/**
 * VS Code-free presentation of `status` items and of extension text shown in VS Code chrome: which icon and
 * background a level gets, and how extension text is kept from being read as codicons or links.
 */

/** The theme colours VS Code allows as a status bar item background. */
export type StatusBackground = 'statusBarItem.errorBackground' | 'statusBarItem.warningBackground';

export interface StatusPresentation {
  /** Text for `StatusBarItem.text`: our level icon, then the extension's text with `$(…)` escaped. */
  text: string;
  background?: StatusBackground;
}

const LEVELS: Readonly<Record<string, { icon: string; background?: StatusBackground }>> = {
  error: { icon: '$(error)', background: 'statusBarItem.errorBackground' },
  warning: { icon: '$(warning)', background: 'statusBarItem.warningBackground' },
  warn: { icon: '$(warning)', background: 'statusBarItem.warningBackground' },
  success: { icon: '$(check)' },
  info: { icon: '$(info)' },
};

/**
 * Escapes codicon syntax the way VS Code's own `escapeIcons` does: `$(name)` becomes `\$(name)`, which the
 * workbench renders literally as `$(name)`. Already-escaped sequences are left alone.
 */
export function escapeIcons(text: string): string {
  return text.replace(/(\\)?\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, (match, escaped: string | undefined) =>
    escaped ? match : `\\${match}`,
  );
}

/** Status bar text and background for one `status` frame. Unknown levels get no icon. */
export function statusPresentation(level: string | undefined, text: string): StatusPresentation {
  const style = LEVELS[(level ?? '').toLowerCase()];
  const body = escapeIcons(text.replace(/\s*[\r\n]+\s*/g, ' '));
  return style ? { text: `${style.icon} ${body}`, background: style.background } : { text: body };
}

/**
 * Keeps notification text from becoming links: VS Code turns `[label](https:…|command:…|file:…)` in a message
 * into a clickable link, so a zero-width space is put between `]` and `(`.
 */
export function escapeNotificationLinks(text: string): string {
  return text.replace(/\]\(/g, ']\u200b(');
}
