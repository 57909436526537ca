/** Money is kept as whole kopecks inside and shown as roubles with 2 decimals outside. */

/** Roubles (as a client sends them) to kopecks, rounded half away from zero. */
export function toKopecks(roubles: number): number {
  return Math.sign(roubles) * Math.round(Math.abs(roubles) * 100 + 1e-9);
}

/** Kopecks to roubles for a response. */
export function toRoubles(kopecks: number): number {
  return kopecks / 100;
}

/** `percent` of `kopecks`, rounded to the kopeck. */
export function percentOf(kopecks: number, percent: number): number {
  return Math.round((kopecks * percent) / 100);
}
