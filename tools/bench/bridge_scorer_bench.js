// Times bridge-scorer's matchpoints and crossImps inside Node on boards read from a JSON file; prints JSON.
//
// Usage: node bridge_scorer_bench.js BOARDS.json
// Input: {"boards": [[ns_score, ...], ...], "repeat": 3, "methods": ["matchpoints", "crossImps"],
//         "cap_seconds": 60, "values": true}
// Output: {"matchpoints": {"ms": best total over all boards, "runs": n, "boards_timed": k, "extrapolated": bool,
//          "values": [[matchpointsNS.value, ...] per board timed]}, "crossImps": {... impsNS.value ...}}
// Each call gets fresh game objects, built outside the timed region (the peer writes its results into them).
// "clock": "wall" (default, hrtime) or "cpu" (process.cpuUsage, user + system: the process's CPU time, which a
// loaded machine's other processes do not add to; it counts the engine's helper threads too).
// A run that passes cap_seconds stops after the board in hand and its time is extrapolated to all boards,
// reported as "extrapolated": true; such a run is not repeated.
'use strict';

const fs = require('fs');
const path = require('path');
const scorer = require(path.join(__dirname, 'node_modules', 'bridge-scorer'));

const RESULT_FIELD = { matchpoints: 'matchpointsNS', crossImps: 'impsNS' };

function games(scores) {
    // A game as the peer's README gives it: declaror N, so score is the NS score.
    return scores.map((s) => ({ contract: { declaror: 'N' }, score: s }));
}

function now(cpu) {
    if (!cpu) {
        return process.hrtime.bigint();
    }
    const u = process.cpuUsage();
    return BigInt(u.user + u.system) * 1000n;
}

function run(method, boards, capNs, cpu) {
    const fn = scorer[method];
    const field = RESULT_FIELD[method];
    let elapsed = 0n;
    const values = [];
    for (let b = 0; b < boards.length; ++b) {
        const g = games(boards[b]);
        const t0 = now(cpu);
        fn(g);
        elapsed += now(cpu) - t0;
        values.push(g.map((x) => x[field].value));
        if (capNs !== null && elapsed > capNs && b + 1 < boards.length) {
            return { ns: elapsed, timed: b + 1, values };
        }
    }
    return { ns: elapsed, timed: boards.length, values };
}

function main() {
    const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
    const boards = spec.boards;
    const repeat = spec.repeat || 3;
    const capNs = spec.cap_seconds ? BigInt(Math.round(spec.cap_seconds * 1e9)) : null;
    const out = {};
    for (const method of spec.methods || ['matchpoints', 'crossImps']) {
        let best = null;
        let runs = 0;
        for (let r = 0; r < repeat; ++r) {
            const got = run(method, boards, capNs, spec.clock === 'cpu');
            runs += 1;
            const ms = Number(got.ns) / 1e6;
            const extrapolated = got.timed < boards.length;
            const total = extrapolated ? ms * boards.length / got.timed : ms;
            if (best === null || total < best.ms) {
                best = { ms: total, boards_timed: got.timed, extrapolated, values: got.values };
            }
            // A run over the cap, or one long enough that repeating buys nothing, is not repeated.
            if (extrapolated || (capNs !== null && got.ns * 4n > capNs)) {
                break;
            }
        }
        best.runs = runs;
        if (spec.values === false) {
            delete best.values;
        }
        out[method] = best;
    }
    process.stdout.write(JSON.stringify(out));
}

main();
