use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: jtb_probe::RuleSet = args[1].parse().unwrap();
    let m: jtb_probe::Material = args[2].parse().unwrap();
    let subs = jtb_gen::solve_all(rules, &jtb_gen::plan::successors(rules, m)).unwrap();
    let t = Instant::now();
    let s = jtb_gen::solve(rules, m, &subs).unwrap();
    eprintln!("solve {:?}", t.elapsed());
    let t = Instant::now();
    let (st, _) = jtb_gen::write::summarize(&s);
    eprintln!("summarize {:?} {:?}", t.elapsed(), st[0].wins);
    let t = Instant::now();
    let (d, w) = jtb_gen::write::encode(&s).unwrap();
    eprintln!("encode {:?} dtm {} wdl {}", t.elapsed(), d.len(), w.len());
}
