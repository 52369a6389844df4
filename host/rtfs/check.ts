// Static check of a plan before its first call (filled in below).
export function checkPlan(_source: string): void {}
