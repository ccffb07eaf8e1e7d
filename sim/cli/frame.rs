use anyhow::{bail, Context};
use sfsim::output::picture::{write_maps, write_views};
use sfsim::scenario::{Override, Scenario, Workload};
use sfsim::scene::{FeedbackConfig, FeedbackRenderer, RenderConfig, Scene};
use sfsim::workload::render::ray_camera;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FrameArgs {
    /// Scenario file with a Render workload.
    pub file: PathBuf,
    /// Frame to draw (0-based).
    #[arg(long, default_value_t = 0)]
    pub frame: u64,
    /// Override a field (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Output folder (default: reports/out/<scenario name>/frames).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How many textures get feedback and MinMip map pictures (the most requested first).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub textures: u16,
}

pub fn execute(args: FrameArgs) -> anyhow::Result<()> {
    let scenario = Scenario::load(&args.file, &args.set)?;
    let Workload::Render(cfg) = &scenario.workload else {
        bail!("{}: sfsim frame needs a Render workload (this scenario's workload is not one)", args.file.display());
    };
    let frames = cfg.frame_count(scenario.duration);
    if args.frame >= frames {
        bail!(
            "--frame {} is out of range; the scenario has frames 0..{} ({} at {} fps)",
            args.frame,
            frames,
            scenario.duration,
            cfg.frame_rate
        );
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("reports/out").join(&scenario.name).join("frames"));
    sfsim::output::prepare_dir(&out)?;
    let scene = Scene::build(&cfg.scene).map_err(|e| e.within("workload.scene"))?;
    let path = cfg.camera.open(&scenario.base_dir, f64::from(cfg.frame_rate)).context("workload.camera")?;
    let camera = ray_camera(path.as_ref(), cfg, args.frame);
    let prefix = format!("frame{:05}", args.frame);

    // Every pixel, for the full-screen views.
    let every_pixel = RenderConfig { feedback: FeedbackConfig { one_in: 1, ..cfg.render.feedback }, ..cfg.render };
    let mut views = FeedbackRenderer::new(&scene, &every_pixel).map_err(|e| e.within("workload.render"))?;
    let mut pixels = Vec::new();
    views.render(&camera, scenario.seed, args.frame, Some(&mut pixels));
    let mips = scene.textures.iter().map(|t| t.mip_levels).max().unwrap_or(1);
    let (w, h) = cfg.render.resolution;
    let mut written = write_views(&out, &prefix, w, h, &pixels, mips)?;

    // The scenario's own feedback rate, for the maps.
    let mut renderer = FeedbackRenderer::new(&scene, &cfg.render).map_err(|e| e.within("workload.render"))?;
    renderer.clear_feedback();
    let stats = renderer.render(&camera, scenario.seed, args.frame, None);
    let mut ranked: Vec<(usize, u32)> =
        (0..scene.textures.len() as u32).map(|t| (renderer.requested_texels(t), t)).filter(|(n, _)| *n > 0).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, texture) in ranked.iter().take(usize::from(args.textures)) {
        written.extend(write_maps(&out, &prefix, &renderer, texture)?);
    }
    println!(
        "frame {}: {} pixels sampled (1 in {}), {} hit, {} textures requested tiles",
        args.frame,
        stats.samples,
        cfg.render.feedback.one_in,
        stats.hits,
        ranked.len()
    );
    for p in written {
        println!("{}", p.display());
    }
    Ok(())
}
