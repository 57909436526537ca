/** The part of fontkit (the font engine pdfkit uses) the label rasteriser reads: glyph outlines and advances. */
declare module 'fontkit' {
  export interface PathCommand {
    command: 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath';
    args: number[];
  }
  export interface Glyph {
    id: number;
    advanceWidth: number;
    path: { commands: PathCommand[] };
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: Array<{ xAdvance: number; xOffset: number; yOffset: number }>;
  }
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    layout(text: string): GlyphRun;
    glyphForCodePoint(codePoint: number): Glyph;
  }
  export function create(buffer: Buffer): Font;
}
