# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced, not run: crypto test vectors in dpdk-test-crypto-perf's test
# file format (test/run-crypto-stock.sh, devtools/run-upstream-pmds.sh).

# xts_ieee4_file FILE [KEY]: IEEE 1619 vector 4 (XTS-AES-128: the key
# pair, tweak 0, one 512-byte data unit of bytes 0..255 twice) into FILE;
# KEY (hex) instead of the key pair: the pair in another form (wrapped).
xts_ieee4_file() {
	hexbytes() {
		echo "$1" | sed 's/\(..\)/0x\1, /g; s/, $//' | fold -w 96
	}
	pt=""
	i=0
	while [ $i -lt 512 ]; do
		pt="$pt$(printf '%02x' $((i % 256)))"
		i=$((i + 1))
	done
	{
		echo "plaintext ="
		hexbytes "$pt"
		echo "ciphertext ="
		hexbytes "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89cc78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad02655ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f4341332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203ebb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18deb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568"
		echo "cipher_key ="
		hexbytes "${2:-2718281828459045235360287471352631415926535897932384626433832795}"
		echo "cipher_iv ="
		hexbytes "00000000000000000000000000000000"
	} >"$1"
}

# The officer's secrets of a device in wrapped import whose import KEK is
# the one DPDK 22.11's wrapped-key test vectors are wrapped with (16 zero
# bytes): a credential of 40 bytes and that credential wrapped (RFC 3394)
# with the KEK, which a crypto PMD's wcs_file holds.
XTS_KEK=00000000000000000000000000000000
XTS_CREDENTIAL=6470646b2d6d6c78352d636f6d6d6f6e20736f66747761726520646576696365206f666669636572
XTS_WRAPPED_CREDENTIAL=37d9a13a0fe756bf398e4f96f32a343a1790d76032a46b81308c968c515a56785b58d8cb1ff8d7eb305fef0f95572027
# Vector 4's key pair and key tag 0, wrapped with XTS_KEK (48 bytes).
XTS_IEEE4_WRAPPED_KEY=982affbb27d01eefd370287b8952c5acba830571dcd9a48a40f16e080e7a37ea003817315852c6589abf00e69ebe6149
