#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Here-document bodies whose lines end in a backslash: with the delimiter not quoted, bash
# joins such a line with the next (a `\` then a newline is removed), so the `EOF` right
# after one is body text, not the delimiter; the body goes on to the next `EOF`. Read with
# the `EOF` ending the body, the lines after it were commands: `(` and a backquote left
# open, a GL900 where bash -n accepts the script. A doubled backslash is a backslash, and
# with a quoted delimiter the backslash is text: those bodies end at their `EOF`; a
# delimiter written over two lines is one, as bash joins them.
cat > usage.txt <<EOF
run the server with: \
EOF
( where the image is one of `ls images/`
EOF
x=$(cat <<EOF
a line that goes on \
EOF
) a parenthesis and a `backquote
EOF
)
cat <<EOF
two backslashes are one \\
EOF
cat <<'EOF'
a quoted delimiter keeps the backslash \
EOF
cat <<EOF
the delimiter itself may be written over two lines
EO\
F
echo "$x" done
