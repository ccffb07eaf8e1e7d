//! `sfsim regress`: re-run the baselines and compare (see `sfsim::regress`).

use anyhow::{bail, Context};
use sfsim::regress::{check, report, Options, Status};
use sfsim::scenario::Override;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct RegressArgs {
    /// The folder of baseline files (*.json).
    #[arg(long, default_value = "reports/baselines")]
    pub baselines: PathBuf,
    /// Only this baseline (its file name without .json; repeatable).
    #[arg(long)]
    pub only: Vec<String>,
    /// Rewrite the baselines from this run (config hash, version, every stat) and say what
    /// changed; tolerances are kept.
    #[arg(long)]
    pub update: bool,
    /// A what-if applied to every scenario baseline's run (not to its recorded config):
    /// would this change regress them? Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Output folder for regress.md, junit.xml and the runs.
    #[arg(long, default_value = "reports/out/regress")]
    pub out: PathBuf,
}

pub fn execute(args: RegressArgs) -> anyhow::Result<()> {
    if args.update && !args.set.is_empty() {
        bail!("--update records the baselines as configured; it does not take --set what-ifs");
    }
    sfsim::output::prepare_dir(&args.out)?;
    let options = Options { only: args.only, update: args.update, set: args.set, out: args.out.clone() };
    let outcomes = check(&args.baselines, &options, &mut |name| eprintln!("regress: running {name}"))?;
    let md = report::markdown(&outcomes);
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    std::fs::write(args.out.join("regress.md"), &md).context("cannot write regress.md")?;
    std::fs::write(args.out.join("junit.xml"), report::junit(&outcomes)).context("cannot write junit.xml")?;
    print!("{md}");
    eprintln!("regress: wrote {} and {}", args.out.join("regress.md").display(), args.out.join("junit.xml").display());
    let failed: Vec<&str> = outcomes.iter().filter(|o| o.fails()).map(|o| o.name.as_str()).collect();
    if !failed.is_empty() {
        let regressed: Vec<String> = outcomes
            .iter()
            .filter_map(|o| match &o.status {
                Status::Compared(rows) => {
                    Some(rows.iter().filter(|r| r.verdict.fails()).map(|r| format!("{}: {}", o.name, r.stat)))
                }
                _ => None,
            })
            .flatten()
            .take(20)
            .collect();
        bail!(
            "{} of {} baselines failed ({}); {}",
            failed.len(),
            outcomes.len(),
            failed.join(", "),
            if regressed.is_empty() {
                "see regress.md".to_string()
            } else {
                format!("regressed: {}", regressed.join(", "))
            }
        );
    }
    Ok(())
}
