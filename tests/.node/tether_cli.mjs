// The "cliPath" pi's RpcClient runs with node: starts tether (TETHER_TEST_PYTHON -m tether)
// with the same arguments and standard streams; SIGTERM/SIGHUP are passed on to it.
import { spawn } from "node:child_process";

const python = process.env.TETHER_TEST_PYTHON || "python3";
const child = spawn(python, ["-m", "tether", ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"]) {
	process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
