# Closure Compiler (Java compiled ahead of time by GraalVM native-image):
# ADVANCED mode folds the constants, drops the unused function and inlines
# the call; SIMPLE mode, pretty-printed, only folds and renames locals.
checks="advanced simple"

job() {
	run_prog "$exe" --js "$fx/input.js" --compilation_level ADVANCED
	expect closure/advanced $? "$fx/advanced.expected"
	run_prog "$exe" --js "$fx/input.js" --compilation_level SIMPLE --formatting PRETTY_PRINT --js_output_file out.js
	expect_file closure/simple $? "$tmp/out.js" "$fx/simple.expected"
}
