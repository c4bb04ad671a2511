//! PNG pictures: resvg renders the SVG the drawers wrote, with DejaVu Sans
//! built in, so a picture does not depend on the fonts a machine has (and
//! the pixels the tests read are the same everywhere).

use super::DrawError;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, OnceLock};

/// The family every picture names first.
pub const FAMILY: &str = "DejaVu Sans";

/// The fonts, loaded once per process: parsing them again for each
/// picture would cost more than the drawing.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(dejavu::sans::regular().to_vec());
            db.load_font_data(dejavu::sans::bold().to_vec());
            db.set_sans_serif_family(FAMILY);
            db.set_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// A rendered picture: its pixels, RGBA with premultiplied alpha on a
/// white page, row by row.
pub struct Raster {
    pixmap: Pixmap,
}

impl Raster {
    /// Renders `svg` at `scale` (1 gives one pixel per SVG unit).
    pub fn of_svg(svg: &str, scale: f32) -> Result<Raster, DrawError> {
        let options = usvg::Options {
            font_family: FAMILY.to_string(),
            fontdb: fonts(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &options)
            .map_err(|e| DrawError(format!("the SVG does not read: {e}")))?;
        let size = tree
            .size()
            .to_int_size()
            .scale_by(scale)
            .ok_or_else(|| DrawError(format!("a picture cannot be drawn at scale {scale}")))?;
        let mut pixmap = Pixmap::new(size.width(), size.height()).ok_or_else(|| {
            DrawError(format!(
                "a picture of {}x{} pixels is too large",
                size.width(),
                size.height()
            ))
        })?;
        resvg::render(
            &tree,
            Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(Raster { pixmap })
    }

    /// Reads a PNG file's pixels (a browser's screenshot, say).
    pub fn of_png(data: &[u8]) -> Result<Raster, DrawError> {
        let pixmap = Pixmap::decode_png(data)
            .map_err(|e| DrawError(format!("the PNG does not read: {e}")))?;
        Ok(Raster { pixmap })
    }

    /// The width in pixels.
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// The height in pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The pixel at `x`, `y` as RGBA (premultiplied; transparent off the
    /// picture).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        match self.pixmap.pixel(x, y) {
            Some(p) => [p.red(), p.green(), p.blue(), p.alpha()],
            None => [0; 4],
        }
    }

    /// How dark the pixel at `x`, `y` is, from 0 (white) to 1 (black): one
    /// minus its lightness on a white page.
    pub fn darkness(&self, x: u32, y: u32) -> f64 {
        let [r, g, b, a] = self.pixel(x, y);
        // On white: a premultiplied channel c with alpha a shows as c + 255 - a.
        let shown = |c: u8| f64::from(c) + 255.0 - f64::from(a);
        let light = (shown(r) + shown(g) + shown(b)) / (3.0 * 255.0);
        (1.0 - light).clamp(0.0, 1.0)
    }

    /// The share of pixels darker than one half inside the box at `x`, `y`
    /// of `width` by `height` pixels (clipped to the picture).
    pub fn ink(&self, x: f64, y: f64, width: f64, height: f64) -> f64 {
        let x0 = x.max(0.0).round() as u32;
        let y0 = y.max(0.0).round() as u32;
        let x1 = ((x + width).round().max(0.0) as u32).min(self.width());
        let y1 = ((y + height).round().max(0.0) as u32).min(self.height());
        let mut dark = 0usize;
        let mut all = 0usize;
        for py in y0..y1 {
            for px in x0..x1 {
                all += 1;
                if self.darkness(px, py) > 0.5 {
                    dark += 1;
                }
            }
        }
        if all == 0 {
            0.0
        } else {
            dark as f64 / all as f64
        }
    }

    /// The picture as a PNG file: RGB on its white page, compressed with
    /// the PNG crate's fast setting. tiny-skia's own encoder took 31 ms
    /// for a 9x9 killer, as long as the rendering; this takes 5 ms (one
    /// sitting, loaded machine), for a file about four times larger.
    pub fn png(&self) -> Result<Vec<u8>, DrawError> {
        let failed = |e: png::EncodingError| DrawError(format!("the PNG cannot be written: {e}"));
        let mut rgb = Vec::with_capacity(self.pixmap.data().len() / 4 * 3);
        for p in self.pixmap.pixels() {
            // Premultiplied on white: what shows is c + (255 - a).
            let white = 255 - p.alpha();
            rgb.extend([p.red() + white, p.green() + white, p.blue() + white]);
        }
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width(), self.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().map_err(failed)?;
        writer.write_image_data(&rgb).map_err(failed)?;
        writer.finish().map_err(failed)?;
        Ok(out)
    }
}

/// `svg` as a PNG file at one pixel per SVG unit.
pub fn png(svg: &str) -> Result<Vec<u8>, DrawError> {
    Raster::of_svg(svg, 1.0)?.png()
}
