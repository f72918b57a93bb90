# FFmpeg 4.1 (C, mingw-w64 with msvcrt): generate one second of a 440 Hz
# tone as 16-bit PCM WAV, encode it to FLAC and decode it back: the WAV
# holds what was asked for (fixtures/ffmpeg/wavinfo.py measures its tone)
# and the lossless round trip gives the same file back.
checks="generate encode roundtrip"

job() {
	run_prog "$exe" -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=1:sample_rate=8000" \
		-c:a pcm_s16le -fflags +bitexact -flags +bitexact -map_metadata -1 tone.wav
	rc=$?
	[ "$rc" -eq 0 ] && python3 "$fx/wavinfo.py" "$tmp/tone.wav" >"$out" 2>"$err"
	expect_text ffmpeg/generate $rc "8000 1 2 8000 440"
	run_prog "$exe" -hide_banner -loglevel error -i tone.wav -c:a flac -fflags +bitexact tone.flac
	rc=$?
	head -c 4 "$tmp/tone.flac" > "$out" 2>/dev/null
	echo >> "$out"
	expect_text ffmpeg/encode $rc fLaC
	run_prog "$exe" -hide_banner -loglevel error -i tone.flac -c:a pcm_s16le -fflags +bitexact -flags +bitexact \
		-map_metadata -1 back.wav
	expect_file ffmpeg/roundtrip $? "$tmp/back.wav" "$tmp/tone.wav"
}
