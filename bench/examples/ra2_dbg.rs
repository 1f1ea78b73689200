//! Debug helper: prints one SSA corpus function's CFG and its regalloc2 conversion.
use regalloc::mir::{self, FunctionDoc};
use regalloc_bench::{corpus, ra2};
use regalloc2::Function;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let ct = corpus::target(&a[1]).unwrap();
    let text = std::fs::read_to_string(&a[2]).unwrap();
    let file = mir::read(ct.info, &a[2], &text);
    for d in file.functions {
        let FunctionDoc::Read(mut f) = d else {
            continue;
        };
        if a[3] == "*" {
            if let Ok(p) = ra2::prepare(ct.info, &f) {
                let r = ra2::allocate(&p, ra2::Ra2Algorithm::Ion, true);
                let ok = matches!(&r, Ok(c) if c.checked == Some(Ok(())));
                println!("{} {} {}", f.name, p.func.insts.len(), ok);
            }
            continue;
        }
        if f.name != a[3] {
            continue;
        }
        f.compute_preds();
        for (k, b) in f.blocks.iter().enumerate() {
            println!(
                "bb.{k}: succs {:?} preds {:?}",
                b.succs.iter().map(|s| s.block.0).collect::<Vec<_>>(),
                b.preds.iter().map(|p| p.0).collect::<Vec<_>>()
            );
        }
        match ra2::prepare(ct.info, &f) {
            Err(e) => println!("inexpressible: {e}"),
            Ok(p) => {
                let g = &p.func;
                for b in 0..g.num_blocks() {
                    let bb = regalloc2::Block::new(b);
                    println!(
                        "block{b} (mir {:?}) params {:?} succs {:?} preds {:?} args {:?}",
                        g.blocks[b].mir,
                        g.block_params(bb),
                        g.block_succs(bb),
                        g.block_preds(bb),
                        g.blocks[b].args
                    );
                    for i in g.block_insns(bb).iter() {
                        println!(
                            "  i{} {:?} {:?} clob {:?}",
                            i.index(),
                            g.insts[i.index()].kind,
                            g.inst_operands(i),
                            g.inst_clobbers(i)
                        );
                    }
                }
                let out = regalloc2::run(g, &p.files.env, &regalloc2::RegallocOptions::default())
                    .unwrap();
                for i in 0..g.num_insts() {
                    println!(
                        "  alloc i{i}: {:?}",
                        out.inst_allocs(regalloc2::Inst::new(i))
                    );
                }
                println!("  edits {:?}", out.edits);
                for alg in [ra2::Ra2Algorithm::Ion, ra2::Ra2Algorithm::Fastalloc] {
                    println!("{:?}", ra2::allocate(&p, alg, true));
                }
            }
        }
    }
}
