//! SVG plots of one allocation run: allocation time against function size, and the distribution of per-function cost ratios.

use std::path::Path;

use plotters::prelude::*;

/// One allocator's points: (instructions, microseconds).
pub struct TimeSeries {
    /// Legend label.
    pub label: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// Draws `path`: left, log-log time against size for every series; right,
/// a histogram of log2(ours / other) weighted cost per function, for the
/// functions where both costs are positive, with `title` above.
pub fn draw(
    path: &Path,
    title: &str,
    times: &[TimeSeries],
    ratio_label: &str,
    log2_ratios: &[f64],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("plot {}: {e}", path.display());
    let root = SVGBackend::new(path, (1400, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| err(&e))?;
    let (left, right) = root.split_horizontally(760);

    let all: Vec<(f64, f64)> = times
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .collect();
    let xmax = all.iter().map(|p| p.0).fold(10.0f64, f64::max) * 1.5;
    let ymin = all
        .iter()
        .map(|p| p.1)
        .filter(|&y| y > 0.0)
        .fold(f64::MAX, f64::min)
        .clamp(0.01, 1.0);
    let ymax = all.iter().map(|p| p.1).fold(10.0f64, f64::max) * 1.5;
    let mut chart = ChartBuilder::on(&left)
        .caption("allocation time by function size", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((1.0f64..xmax).log_scale(), (ymin..ymax).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("instructions")
        .y_desc("microseconds")
        .draw()
        .map_err(|e| err(&e))?;
    let colors = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    for (k, s) in times.iter().enumerate() {
        let c = colors[k % colors.len()];
        chart
            .draw_series(
                s.points
                    .iter()
                    .filter(|p| p.0 >= 1.0 && p.1 > 0.0)
                    .map(move |&(x, y)| Circle::new((x, y.max(ymin)), 2, c.mix(0.5).filled())),
            )
            .map_err(|e| err(&e))?
            .label(s.label.clone())
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| err(&e))?;

    // Histogram of log2 ratios in bins of 0.25, clamped to [-4, 4].
    let bins = 32usize;
    let mut counts = vec![0u32; bins];
    for &r in log2_ratios {
        let x = r.clamp(-4.0, 3.999);
        let b = ((x + 4.0) / 0.25) as usize;
        counts[b.min(bins - 1)] += 1;
    }
    let cmax = counts.iter().copied().max().unwrap_or(1).max(1);
    let mut hist = ChartBuilder::on(&right)
        .caption(
            format!(
                "{ratio_label}: log2 per function ({} functions)",
                log2_ratios.len()
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-4.0f64..4.0f64, 0u32..cmax + cmax / 10 + 1)
        .map_err(|e| err(&e))?;
    hist.configure_mesh()
        .x_desc("log2(ours / other), clamped to [-4, 4]")
        .y_desc("functions")
        .draw()
        .map_err(|e| err(&e))?;
    hist.draw_series(counts.iter().enumerate().map(|(b, &c)| {
        let x0 = -4.0 + b as f64 * 0.25;
        let color = if x0 < 0.0 {
            GREEN
        } else if (0.0..0.25).contains(&x0) {
            BLUE
        } else {
            RED
        };
        Rectangle::new([(x0, 0), (x0 + 0.25, c)], color.mix(0.6).filled())
    }))
    .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
