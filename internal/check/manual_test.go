package check

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// formErrors are the checker messages that say an instruction matches no
// form of the table.
var formErrors = []string{"unknown instruction", "unknown modifier", "invalid combination", "wrong number of operands", "operands of"}

// TestManualExamplesMatchForms: every instruction in the manual's complete
// examples (testdata/manual) matches a form of the instruction table. The
// examples are snippets (registers are not declared), so only form errors
// count. Known mismatches, each a manual typo or an example that
// contradicts its own Syntax block, are listed with the reason in
// testdata/manual/form-exceptions.tsv; the test fails if one disappears, so
// the list stays true.
func TestManualExamplesMatchForms(t *testing.T) {
	exceptions := map[string]string{} // "file\tmessage" -> reason
	if f, err := os.Open("../../testdata/manual/form-exceptions.tsv"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' {
				continue
			}
			cols := strings.SplitN(line, "\t", 3)
			if len(cols) == 3 {
				exceptions[cols[0]+"\t"+cols[1]] = cols[2]
			}
		}
		f.Close()
	}
	f, err := os.Open("../../testdata/manual/manifest.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	examples := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 6 || c[3] != "body" || c[4] != "yes" || c[5] != "parse" {
			continue
		}
		src, err := os.ReadFile("../../testdata/manual/" + c[0])
		if err != nil {
			t.Fatal(err)
		}
		mod := ".version 9.2\n.target sm_100a\n.address_size 64\n.entry __example()\n{\n" + string(src) + "\n}\n"
		m, err := ptx.Parse(c[0], []byte(mod), &ptx.ParseOptions{DiscardComments: true})
		if err != nil {
			continue // TestManualExamples (package ptx) reports parse failures
		}
		examples++
		for _, d := range Check(m, Options{}) {
			if !isFormError(d.Msg) {
				continue
			}
			key := c[0] + "\t" + d.Msg
			if _, ok := exceptions[key]; ok {
				seen[key] = true
				continue
			}
			t.Errorf("%s (section %s): %s", c[0], c[2], d.Msg)
		}
	}
	for key := range exceptions {
		if !seen[key] {
			t.Errorf("listed exception no longer occurs (remove it from form-exceptions.tsv): %q", key)
		}
	}
	t.Logf("%d examples checked, %d known exceptions", examples, len(exceptions))
}

func isFormError(msg string) bool {
	for _, p := range formErrors {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
