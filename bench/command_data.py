"""Shell commands a coding agent runs, for the check of what a command is known by (bench/command_keys_eval.py): 150
commands and what each runs that a lesson could be about. Written blind on 2026-12-04 by a helper session that saw no
code of this repository; then used to mend harness/shell.py and core/command_recall.py (so no longer held out). Its
labelling conventions, as it wrote them:

Test data: realistic shell commands a coding agent might send, with the
programs/subcommands, scripts and build targets they actually run.

Labelling conventions used throughout:
 * program + first subcommand ("git push", "kubectl rollout", "aws s3",
   "terraform apply"); options before the subcommand are skipped
   (git -C app push -> "git push"). `docker compose` / `docker-compose`
   are treated as the program, so they get "docker compose up" etc.
 * programs with no subcommand that a lesson could name get their bare
   name: "pytest", "psql", "eslint", "tsc", "rspec", "mypy", "ssh".
 * scripts by base file name: "release.sh", "seed_db.py", "deploy.ts",
   and "manage.py migrate", "artisan migrate", "rails db:migrate" for
   script-style CLIs that take subcommands.
 * build targets: "make deploy", "just test", "npm run build",
   "yarn lint", "pnpm run e2e", "rake db:migrate", "mix ecto.migrate",
   "gradlew build", "mvn package". Variable overrides (ENV=prod) are not
   targets.
 * runners that are themselves program+subcommand are listed too
   ("uv run", "poetry run", "bundle exec", "pnpm exec", "go run",
   "docker compose exec", "kubectl exec"); bare runners/interpreters
   (npx, uvx, node, python, bash, sh, env, sudo, time, nohup, timeout,
   watch, xargs) are unwrapped and not listed themselves.
 * generic text/file utilities (ls, cat, cd, echo, grep, rg, sed, awk,
   jq, find, curl, head, tail, wc, mkdir, chmod, rm, touch) are not listed.
 * text that merely mentions a command (echo/grep/commit messages/
   heredoc bodies written to files) does not count as running it.
"""

CASES = [
    # ---------------------------------------------------------------- empty
    {'command': 'ls -la', 'runs': []},
    {'command': 'pwd', 'runs': []},
    {'command': 'cat README.md', 'runs': []},
    {'command': 'cat scripts/deploy.sh', 'runs': []},
    {'command': 'grep -rn "alembic upgrade" docs/', 'runs': []},
    {'command': 'echo "DONE: npm publish succeeded, now run make deploy"', 'runs': []},
    {'command': "rg -n 'terraform apply' -g '*.md' | head -20", 'runs': []},
    {'command': 'find . -name "*.tf" -not -path "*/.terraform/*" | sort', 'runs': []},
    {'command': 'mkdir -p scripts && touch scripts/release.sh && chmod +x scripts/release.sh', 'runs': []},
    {'command': 'which -a python3 node go', 'runs': []},
    {'command': 'command -v helm || echo "helm not installed"', 'runs': []},
    {'command': "printf '%s\\n' \"$PATH\" | tr ':' '\\n'", 'runs': []},
    {'command': 'cat package.json | jq .scripts', 'runs': []},
    {'command': 'head -n 40 Makefile; echo ---; cat justfile', 'runs': []},
    {'command': "echo 'make deploy ENV=prod' >> NOTES.md", 'runs': []},
    {'command': "cat > .env.local <<'EOF'\nDATABASE_URL=postgres://postgres:postgres@localhost:5432/app_dev\nREDIS_URL=redis://localhost:6379/0\n# run `npx prisma migrate dev` after editing\nEOF", 'runs': []},
    {'command': "cat <<'EOF' > scripts/release.sh\n#!/usr/bin/env bash\nset -euo pipefail\nnpm version \"$1\"\ngit push --follow-tags\nnpm publish\nEOF\nchmod +x scripts/release.sh", 'runs': []},
    {'command': 'cd infra/envs/prod && ls -la && cat backend.tf', 'runs': []},

    # ---------------------------------------------------------------- git
    {'command': 'git status', 'runs': ['git status']},
    {'command': 'git log --oneline -n 20 | cat', 'runs': ['git log']},
    {'command': 'git -C app push origin main', 'runs': ['git push']},
    {'command': 'git add -A && git commit -m "fix: handle && and || in shell parser" && git push', 'runs': ['git add', 'git commit', 'git push']},
    {'command': 'git stash && git pull --rebase; git stash pop', 'runs': ['git stash', 'git pull']},
    {'command': 'git tag -a v1.4.0 -m "Release v1.4.0" && git push origin v1.4.0', 'runs': ['git tag', 'git push']},
    {'command': 'git bisect start HEAD v1.3.0 && git bisect run ./scripts/repro.sh', 'runs': ['git bisect', 'repro.sh']},
    {'command': "git commit -F - <<'EOF'\nchore: bump deps\n\nRan `npm publish` and `terraform apply` manually afterwards.\nEOF", 'runs': ['git commit']},
    {'command': 'if ! git diff --quiet; then echo "working tree dirty"; exit 1; fi', 'runs': ['git diff']},
    {'command': 'git worktree add ../wt-hotfix hotfix/1.4.1 && cd ../wt-hotfix && npm ci', 'runs': ['git worktree', 'npm ci']},

    # ---------------------------------------------------------------- python
    {'command': 'uv run alembic upgrade head', 'runs': ['uv run', 'alembic upgrade']},
    {'command': 'uv sync --frozen && uv run pytest -q', 'runs': ['uv sync', 'uv run', 'pytest']},
    {'command': 'poetry run pytest -x tests/unit', 'runs': ['poetry run', 'pytest']},
    {'command': 'poetry lock --no-update && poetry install --with dev', 'runs': ['poetry lock', 'poetry install']},
    {'command': 'python -m pytest -k "not slow" --maxfail=1 -q', 'runs': ['pytest']},
    {'command': 'PYTHONPATH=src python -m pytest tests/integration -vv 2>&1 | tail -50', 'runs': ['pytest']},
    {'command': 'python scripts/seed_db.py --env staging --users 50', 'runs': ['seed_db.py']},
    {'command': 'python manage.py makemigrations && python manage.py migrate', 'runs': ['manage.py makemigrations', 'manage.py migrate']},
    {'command': 'ruff check . --fix && ruff format .', 'runs': ['ruff check', 'ruff format']},
    {'command': 'coverage run -m pytest && coverage report -m --fail-under=85', 'runs': ['coverage run', 'pytest', 'coverage report']},
    {'command': 'python3 -m pip install --upgrade pip && pip install -e ".[dev]"', 'runs': ['pip install']},
    {'command': 'poetry run python scripts/backfill_invoices.py --dry-run > backfill.log 2>&1', 'runs': ['poetry run', 'backfill_invoices.py']},
    {'command': 'uv run --with httpx python tools/check_links.py docs/', 'runs': ['uv run', 'check_links.py']},
    {'command': 'celery -A app.worker worker --loglevel=info --concurrency=2', 'runs': ['celery worker']},
    {'command': 'flask --app app db upgrade', 'runs': ['flask db']},
    {'command': 'uv build && uv publish --token "$PYPI_TOKEN"', 'runs': ['uv build', 'uv publish']},
    {'command': "python3 - <<'PY'\nimport json, pathlib\ncfg = json.loads(pathlib.Path('config.json').read_text())\nprint(sorted(cfg))\nPY", 'runs': []},
    {'command': 'dbt run --select staging+ --target dev && dbt test --select staging+', 'runs': ['dbt run', 'dbt test']},

    # ---------------------------------------------------------------- node / js
    {'command': 'npm ci && npm run build', 'runs': ['npm ci', 'npm run build']},
    {'command': 'npm test -- --watch=false', 'runs': ['npm test']},
    {'command': 'npm --prefix frontend run build', 'runs': ['npm run build']},
    {'command': 'npm version patch && git push --follow-tags && npm publish --access public', 'runs': ['npm version', 'git push', 'npm publish']},
    {'command': 'yarn lint', 'runs': ['yarn lint']},
    {'command': 'pnpm run e2e', 'runs': ['pnpm run e2e']},
    {'command': 'pnpm exec vitest run src/utils', 'runs': ['pnpm exec', 'vitest run']},
    {'command': 'pnpm --filter web build', 'runs': ['pnpm build']},
    {'command': 'npx prisma migrate deploy', 'runs': ['prisma migrate']},
    {'command': 'DATABASE_URL=$(op read op://dev/postgres/url) npx prisma migrate dev --name add_orders', 'runs': ['op read', 'prisma migrate']},
    {'command': 'npx playwright test --project=chromium tests/e2e/login.spec.ts', 'runs': ['playwright test']},
    {'command': 'node tools/gen.mjs --out src/generated', 'runs': ['gen.mjs']},
    {'command': 'npx tsx scripts/deploy.ts --stage staging', 'runs': ['deploy.ts']},
    {'command': 'npx changeset version && pnpm install && npx changeset publish', 'runs': ['changeset version', 'pnpm install', 'changeset publish']},
    {'command': 'bun run scripts/seed.ts', 'runs': ['bun run', 'seed.ts']},
    {'command': 'deno task check && deno run -A scripts/build.ts', 'runs': ['deno task check', 'deno run', 'build.ts']},
    {'command': 'bash -lc "nvm use 20 && npm ci && npm run build"', 'runs': ['nvm use', 'npm ci', 'npm run build']},
    {'command': 'env $(grep -v "^#" .env | xargs) node dist/server.js', 'runs': ['server.js']},
    {'command': '(cd web && npm run build) && (cd api && npm run build)', 'runs': ['npm run build']},
    {'command': 'timeout 300 npm test 2>&1 | tee test-output.log', 'runs': ['npm test']},

    # ---------------------------------------------------------------- go
    {'command': 'go test -race ./...', 'runs': ['go test']},
    {'command': 'go run ./cmd/migrate -dir migrations up', 'runs': ['go run', 'cmd/migrate']},
    {'command': 'CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o bin/api ./cmd/api', 'runs': ['go build']},
    {'command': 'goose -dir db/migrations postgres "$DATABASE_URL" up', 'runs': ['goose up']},
    {'command': 'go generate ./... && sqlc generate && buf generate', 'runs': ['go generate', 'sqlc generate', 'buf generate']},
    {'command': "sh -c 'cd services/billing && go test ./... -run TestInvoice -count=1 2>&1 | tee /tmp/billing-test.log'", 'runs': ['go test']},

    # ---------------------------------------------------------------- rust
    {'command': 'cargo test', 'runs': ['cargo test']},
    {'command': 'cargo clippy --all-targets -- -D warnings && cargo fmt --check', 'runs': ['cargo clippy', 'cargo fmt']},
    {'command': 'time cargo build --release', 'runs': ['cargo build']},
    {'command': 'RUST_LOG=debug cargo run -p server -- --port 8080', 'runs': ['cargo run']},
    {'command': 'sqlx migrate run --database-url "$DATABASE_URL"', 'runs': ['sqlx migrate']},

    # ---------------------------------------------------------------- jvm
    {'command': 'mvn -B -q -DskipTests package', 'runs': ['mvn package']},
    {'command': 'mvn clean verify -pl api -am', 'runs': ['mvn clean', 'mvn verify']},
    {'command': './gradlew --no-daemon clean build -x test', 'runs': ['gradlew clean', 'gradlew build']},
    {'command': "./gradlew bootRun --args='--spring.profiles.active=dev'", 'runs': ['gradlew bootRun']},
    {'command': './mvnw flyway:migrate -Dflyway.url="jdbc:postgresql://localhost:5432/app"', 'runs': ['mvnw flyway:migrate']},
    {'command': 'java -jar target/app-0.3.1.jar --server.port=9090', 'runs': ['app-0.3.1.jar']},

    # ---------------------------------------------------------------- ruby
    {'command': 'bundle exec rake db:migrate', 'runs': ['bundle exec', 'rake db:migrate']},
    {'command': 'bundle install && bin/rails db:prepare', 'runs': ['bundle install', 'rails db:prepare']},
    {'command': 'RAILS_ENV=test bundle exec rspec spec/requests/users_spec.rb:42', 'runs': ['bundle exec', 'rspec']},
    {'command': 'bundle exec cap production deploy', 'runs': ['bundle exec', 'cap deploy']},
    {'command': 'env -u DATABASE_URL RAILS_ENV=production bundle exec rake assets:precompile', 'runs': ['bundle exec', 'rake assets:precompile']},

    # ---------------------------------------------------------------- php
    {'command': 'php artisan migrate --force', 'runs': ['artisan migrate']},
    {'command': 'composer install --no-dev --optimize-autoloader', 'runs': ['composer install']},
    {'command': 'vendor/bin/phpunit --filter UserRegistrationTest', 'runs': ['phpunit']},
    {'command': 'php bin/console doctrine:migrations:migrate --no-interaction', 'runs': ['console doctrine:migrations:migrate']},

    # ---------------------------------------------------------------- other langs
    {'command': 'dotnet ef database update --project src/Api', 'runs': ['dotnet ef']},
    {'command': 'dotnet test --filter "Category=Unit" -c Release', 'runs': ['dotnet test']},
    {'command': 'mix deps.get && MIX_ENV=test mix ecto.migrate && mix test', 'runs': ['mix deps.get', 'mix ecto.migrate', 'mix test']},
    {'command': 'cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j8 && ctest --test-dir build --output-on-failure', 'runs': ['cmake', 'cmake --build', 'ctest']},
    {'command': 'bazel test //services/auth/... --test_output=errors', 'runs': ['bazel test']},

    # ---------------------------------------------------------------- make / just / task
    {'command': 'make', 'runs': ['make']},
    {'command': 'FOO=1 make deploy', 'runs': ['make deploy']},
    {'command': 'make -C infra deploy ENV=prod', 'runs': ['make deploy']},
    {'command': 'make -j4 build && make test', 'runs': ['make build', 'make test']},
    {'command': 'make lint test 2>&1 | tail -30', 'runs': ['make lint', 'make test']},
    {'command': 'just test', 'runs': ['just test']},
    {'command': 'just --justfile ci.just deploy staging', 'runs': ['just deploy']},

    # ---------------------------------------------------------------- scripts
    {'command': './scripts/release.sh 1.4.0', 'runs': ['release.sh']},
    {'command': 'bash scripts/backup.sh --target s3://acme-backups/nightly', 'runs': ['backup.sh']},
    {'command': 'nohup ./scripts/worker.sh > worker.log 2>&1 &', 'runs': ['worker.sh']},
    {'command': 'sudo -E ./install.sh --prefix /usr/local', 'runs': ['install.sh']},
    {'command': 'source scripts/env.sh && ./bin/setup', 'runs': ['env.sh', 'setup']},
    {'command': 'ssh deploy@app-01.internal \'cd /srv/app && ./deploy.sh --restart\'', 'runs': ['ssh', 'deploy.sh']},

    # ---------------------------------------------------------------- databases
    {'command': 'psql "$DATABASE_URL" -c "select count(*) from users;"', 'runs': ['psql']},
    {'command': 'for f in db/migrations/*.sql; do psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f "$f" || break; done', 'runs': ['psql']},
    {'command': "docker exec -i db psql -U postgres -d app -c '\\dt'", 'runs': ['docker exec', 'psql']},
    {'command': "psql \"$DATABASE_URL\" <<< 'SELECT version();'", 'runs': ['psql']},

    # ---------------------------------------------------------------- docker
    {'command': 'docker build -t api:dev -f docker/Dockerfile.api .', 'runs': ['docker build']},
    {'command': 'docker compose -f ci.yml up -d', 'runs': ['docker compose up']},
    {'command': 'docker compose exec web python manage.py migrate', 'runs': ['docker compose exec', 'manage.py migrate']},
    {'command': 'docker compose run --rm api bundle exec rails db:seed', 'runs': ['docker compose run', 'bundle exec', 'rails db:seed']},
    {'command': 'docker-compose -f docker-compose.test.yml up --build --abort-on-container-exit', 'runs': ['docker-compose up']},
    {'command': 'docker compose logs -f --tail=100 api | grep -i "traceback"', 'runs': ['docker compose logs']},
    {'command': 'docker run --rm -v "$PWD":/app -w /app node:20 npm ci', 'runs': ['docker run', 'npm ci']},
    {'command': 'docker tag api:dev "$REGISTRY/api:$(git rev-parse --short HEAD)" && docker push "$REGISTRY/api:$(git rev-parse --short HEAD)"', 'runs': ['docker tag', 'git rev-parse', 'docker push']},
    {'command': 'docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/web:latest --push .', 'runs': ['docker buildx']},
    {'command': r'''docker run --rm \
  --network host \
  -v "$PWD/db/migrations:/migrations" \
  migrate/migrate:v4.17.0 \
  -path /migrations \
  -database "$DATABASE_URL" up''', 'runs': ['docker run']},

    # ---------------------------------------------------------------- kubernetes / helm
    {'command': 'kubectl get pods | grep api', 'runs': ['kubectl get']},
    {'command': 'kubectl -n prod rollout restart deploy/api', 'runs': ['kubectl rollout']},
    {'command': 'kubectl rollout status deploy/api -n prod --timeout=180s', 'runs': ['kubectl rollout']},
    {'command': 'kubectl apply -k overlays/staging && kubectl -n staging get svc', 'runs': ['kubectl apply', 'kubectl get']},
    {'command': 'kubectl exec -n prod deploy/api -- bin/rails db:migrate', 'runs': ['kubectl exec', 'rails db:migrate']},
    {'command': "kubectl get pods -n prod -o json | jq -r '.items[] | select(.status.phase != \"Running\") | .metadata.name' | xargs -r kubectl delete pod -n prod", 'runs': ['kubectl get', 'kubectl delete']},
    {'command': "kubectl apply -f - <<EOF\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: reindex-$(date +%s)\n  namespace: search\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: reindex\n          image: ghcr.io/acme/search:latest\n          command: [\"python\", \"reindex.py\"]\nEOF", 'runs': ['kubectl apply']},
    {'command': 'kustomize build overlays/prod | kubectl diff -f -', 'runs': ['kustomize build', 'kubectl diff']},
    {'command': r'''helm upgrade --install api ./charts/api \
  --namespace prod --create-namespace \
  -f charts/api/values-prod.yaml \
  --set image.tag=$(git rev-parse --short HEAD) \
  --wait --timeout 10m''', 'runs': ['helm upgrade', 'git rev-parse']},
    {'command': 'helm dependency update charts/platform && helm template platform charts/platform -f values.yaml | kubectl apply --dry-run=server -f -', 'runs': ['helm dependency', 'helm template', 'kubectl apply']},
    {'command': 'sops -d secrets/prod.enc.yaml | kubectl apply -f -', 'runs': ['sops', 'kubectl apply']},

    # ---------------------------------------------------------------- terraform / cloud
    {'command': 'cd infra && terraform plan', 'runs': ['terraform plan']},
    {'command': 'TF_VAR_env=prod terraform -chdir=infra/envs/prod apply -auto-approve', 'runs': ['terraform apply']},
    {'command': 'cd infra && terraform plan -out=tfplan && terraform show -json tfplan > plan.json', 'runs': ['terraform plan', 'terraform show']},
    {'command': 'terraform workspace select staging || terraform workspace new staging', 'runs': ['terraform workspace']},
    {'command': 'pulumi up --stack acme/prod --yes', 'runs': ['pulumi up']},
    {'command': 'aws s3 sync ./dist s3://acme-web-prod --delete && aws cloudfront create-invalidation --distribution-id E123ABC --paths "/*"', 'runs': ['aws s3', 'aws cloudfront']},
    {'command': 'AWS_PROFILE=staging aws ecs update-service --cluster main --service api --force-new-deployment', 'runs': ['aws ecs']},
    {'command': 'gcloud builds submit --tag gcr.io/acme/api && gcloud run deploy api --image gcr.io/acme/api --region us-central1', 'runs': ['gcloud builds', 'gcloud run']},
    {'command': 'flyctl deploy --remote-only -a acme-api', 'runs': ['flyctl deploy']},
    {'command': 'ansible-playbook -i inventories/prod site.yml --limit web --check --diff', 'runs': ['ansible-playbook']},

    # ---------------------------------------------------------------- system
    {'command': 'sudo systemctl restart nginx && sudo systemctl status nginx --no-pager', 'runs': ['systemctl restart', 'systemctl status']},
    {'command': 'sudo apt-get update && sudo apt-get install -y libpq-dev', 'runs': ['apt-get update', 'apt-get install']},
    {'command': 'gh pr create --fill --base main && gh pr checks --watch', 'runs': ['gh pr']},
    {'command': 'gh release create v1.4.0 dist/*.tar.gz --notes-file CHANGELOG.md', 'runs': ['gh release']},
    {'command': 'rsync -avz --delete build/ deploy@web-01:/var/www/app/', 'runs': ['rsync']},
]
