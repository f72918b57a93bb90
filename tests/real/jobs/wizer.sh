# Wizer (Rust, MSVC, static CRT; wasmtime inside), the WebAssembly
# pre-initializer: run a module's wizer.initialize and write the module
# with the state it left (fixtures/wizer/make-modules.py makes both the
# input and the module that must come out).
checks="preinit"

job() {
	python3 "$fx/make-modules.py" "$tmp"
	run_prog "$exe" init.wasm -o out.wasm
	expect_file wizer/preinit $? "$tmp/out.wasm" "$tmp/expected.wasm"
}
