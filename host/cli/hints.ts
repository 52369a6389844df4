// Lines the CLI prints under an error, shared by the full CLI (host/cli.ts) and the thin client.

/** Without a terminal nobody could be asked, so the config's answer (deny by default) was used. */
export const NO_TTY_HINT = 'hint: no terminal to ask on, so [consent] non_interactive answered; approve with --yes (-y), or set [consent] non_interactive = "approve" in the config\n';
