// manifest-tool: what the deployment tests need from Go libraries (test/integration/deployment.test.ts).
//
//	manifest-tool compose FILE   loads a Compose file as `docker compose` does (compose-go: interpolation with the
//	                             environment, validation against the Compose Specification schema, normalisation)
//	                             and prints the resulting project as JSON; exits 1 with the loader's error.
//	manifest-tool yaml FILE...   prints every YAML document of the files as one JSON array.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) < 3 {
		fail(errors.New("usage: manifest-tool compose FILE | yaml FILE..."))
	}
	switch os.Args[1] {
	case "compose":
		fail(compose(os.Args[2]))
	case "yaml":
		fail(documents(os.Args[2:]))
	default:
		fail(fmt.Errorf("unknown command %q", os.Args[1]))
	}
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func compose(file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	content, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	env := map[string]string{}
	for _, pair := range os.Environ() {
		for i := 0; i < len(pair); i++ {
			if pair[i] == '=' {
				env[pair[:i]] = pair[i+1:]
				break
			}
		}
	}
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  filepath.Dir(abs),
		ConfigFiles: []types.ConfigFile{{Filename: abs, Content: content}},
		Environment: env,
	}, func(options *loader.Options) {
		options.SetProjectName("dpp", true)
	})
	if err != nil {
		return err
	}
	out, err := project.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

func documents(files []string) error {
	all := []any{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		decoder := yaml.NewDecoder(f)
		for {
			var doc any
			err := decoder.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", file, err)
			}
			if doc != nil {
				all = append(all, doc)
			}
		}
		f.Close()
	}
	return json.NewEncoder(os.Stdout).Encode(all)
}
