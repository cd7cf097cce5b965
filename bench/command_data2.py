"""Shell commands a coding agent runs, a second set (bench/command_keys_eval.py --data command_data2): 150 commands and
what each runs. Written blind on 2026-12-04, after harness/shell.py's and core/command_recall.py's rules of 49d0692
were chosen, by a helper session that saw no code of this repository; run as written, nothing chosen on it.

"""

CASES = [
    # --- Python / Django / data ---
    {'command': 'DJANGO_SETTINGS_MODULE=config.settings.staging python manage.py migrate --plan',
     'runs': ['manage.py migrate']},
    {'command': 'poetry run python manage.py collectstatic --noinput --clear',
     'runs': ['poetry run', 'manage.py collectstatic']},
    {'command': '''docker compose exec web sh -c "python manage.py shell -c 'from billing.tasks import sync_invoices; sync_invoices()'"''',
     'runs': ['docker compose exec', 'manage.py shell']},
    {'command': 'python -m alembic -c services/ledger/alembic.ini revision --autogenerate -m "add fx_rate table"',
     'runs': ['alembic revision']},
    {'command': 'uv run --with ipython python -m scripts.repair_orphans --dry-run --tenant 4411',
     'runs': ['uv run', 'repair_orphans.py']},
    {'command': 'uv run ruff check --fix . && uv run ruff format .',
     'runs': ['uv run', 'ruff check', 'ruff format']},
    {'command': 'uv lock --upgrade-package httpx',
     'runs': ['uv lock']},
    {'command': "poetry add 'pydantic>=2.6,<3' && poetry lock --no-update",
     'runs': ['poetry add', 'poetry lock']},
    {'command': 'tox -e py312,lint -p auto',
     'runs': ['tox']},
    {'command': 'rm -rf dist/ && python -m build && twine upload --repository testpypi dist/*',
     'runs': ['build', 'twine upload']},
    {'command': 'maturin develop --release && python -c "import fastgeo; print(fastgeo.__version__)"',
     'runs': ['maturin develop']},
    {'command': 'pytest tests/test_parser.py::TestTokenizer::test_unicode_escapes -x --lf -vv',
     'runs': ['pytest']},
    {'command': 'jupyter nbconvert --to notebook --execute notebooks/eval_retrieval.ipynb --inplace --ExecutePreprocessor.timeout=900',
     'runs': ['jupyter nbconvert', 'eval_retrieval.ipynb']},
    {'command': "gunicorn 'app:create_app()' -w 4 -b 0.0.0.0:8000 --access-logfile - --timeout 120",
     'runs': ['gunicorn']},
    {'command': 'python scripts/backfill_embeddings.py --batch-size 256 --since 2024-01-01 > logs/backfill.log 2>&1 &',
     'runs': ['backfill_embeddings.py']},
    {'command': 'dbt run --select +fct_orders --target prod --full-refresh',
     'runs': ['dbt run']},
    {'command': '''airflow dags trigger etl_daily_rollup --conf '{"ds": "2024-06-30", "reprocess": true}' ''',
     'runs': ['airflow dags trigger']},
    {'command': 'uv run pre-commit run --all-files --show-diff-on-failure',
     'runs': ['uv run', 'pre-commit run']},
    {'command': r'''uv run python - <<'PY'
import json, pathlib
cfg = json.loads(pathlib.Path("config/feature_flags.json").read_text())
print(sorted(k for k, v in cfg.items() if v.get("rollout", 0) < 100))
PY''',
     'runs': ['uv run']},
    {'command': 'locust -f loadtests/locustfile.py --headless -u 200 -r 20 -t 5m --host https://staging.api.example.com',
     'runs': ['locust', 'locustfile.py']},

    # --- Ruby / Rails ---
    {'command': 'bin/rails db:rollback STEP=2 RAILS_ENV=development',
     'runs': ['rails db:rollback']},
    {'command': 'bundle exec rspec spec/models/invoice_spec.rb:42 --format documentation',
     'runs': ['bundle exec', 'rspec']},
    {'command': 'RAILS_ENV=production SECRET_KEY_BASE=dummy bundle exec rake assets:precompile',
     'runs': ['bundle exec', 'rake assets:precompile']},
    {'command': "sh -c 'until pg_isready -h db -p 5432; do sleep 1; done; bundle exec rails db:prepare'",
     'runs': ['pg_isready', 'bundle exec', 'rails db:prepare']},
    {'command': 'heroku run --app reportly-staging rake data:backfill_regions',
     'runs': ['heroku run', 'rake data:backfill_regions']},
    {'command': '''fly ssh console -a tallyhq -C "bin/rails runner 'puts Account.where(plan: nil).count'"''',
     'runs': ['fly ssh console', 'rails runner']},
    {'command': 'bundle exec rubocop -A app/services/ && bundle exec cucumber features/checkout.feature --tags @smoke',
     'runs': ['bundle exec', 'rubocop', 'cucumber']},
    {'command': 'cd ios && bundle exec fastlane beta',
     'runs': ['bundle exec', 'fastlane beta']},

    # --- PHP ---
    {'command': 'php artisan queue:restart && php artisan config:cache',
     'runs': ['artisan queue:restart', 'artisan config:cache']},
    {'command': 'vendor/bin/phpunit --filter=RefundTest --testdox',
     'runs': ['phpunit']},
    {'command': 'php bin/console doctrine:migrations:migrate --no-interaction --env=prod',
     'runs': ['console doctrine:migrations:migrate']},
    {'command': 'vendor/bin/drush updb -y && vendor/bin/drush cr',
     'runs': ['drush updb', 'drush cr']},

    # --- Elixir / Erlang / Haskell / OCaml / misc langs ---
    {'command': 'MIX_ENV=test mix ecto.reset',
     'runs': ['mix ecto.reset']},
    {'command': 'mix deps.get --only prod && MIX_ENV=prod mix release courier --overwrite',
     'runs': ['mix deps.get', 'mix release']},
    {'command': '_build/prod/rel/courier/bin/courier eval "Courier.Release.migrate()"',
     'runs': ['courier eval']},
    {'command': '''stack test --fast --ta '--match "/Parser/"' ''',
     'runs': ['stack test']},
    {'command': 'cabal build all && cabal run exe:migrate -- --dry-run',
     'runs': ['cabal build', 'cabal run']},
    {'command': 'Rscript analysis/fit_churn_model.R --input data/cohorts.parquet --out reports/',
     'runs': ['fit_churn_model.R']},
    {'command': "julia --project=. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'",
     'runs': ['julia']},

    # --- JVM / .NET / mobile ---
    {'command': './gradlew :app:assembleRelease -PversionCode=214 --stacktrace',
     'runs': ['gradlew assembleRelease']},
    {'command': "./gradlew spotlessApply test --tests 'com.acme.pricing.*'",
     'runs': ['gradlew spotlessApply', 'gradlew test']},
    {'command': './mvnw -pl order-service -am verify -DskipITs',
     'runs': ['mvnw verify']},
    {'command': 'sbt "project api" "testOnly *RateLimiterSpec"',
     'runs': ['sbt testOnly']},
    {'command': 'java -jar tools/openapi-generator-cli.jar generate -i api/openapi.yaml -g kotlin -o clients/kotlin --skip-validate-spec',
     'runs': ['openapi-generator-cli.jar generate']},
    {'command': 'dotnet ef database update --project src/Inventory.Infrastructure --startup-project src/Inventory.Api',
     'runs': ['dotnet ef database update']},
    {'command': 'dotnet test --filter "Category=Integration" --logger "trx;LogFileName=it.trx"',
     'runs': ['dotnet test']},
    {'command': 'adb install -r app/build/outputs/apk/debug/app-debug.apk && adb shell am start -n com.acme.notes/.MainActivity',
     'runs': ['adb install', 'adb shell']},
    {'command': 'flutter pub get && dart run build_runner build --delete-conflicting-outputs',
     'runs': ['flutter pub get', 'dart run', 'build_runner build']},
    {'command': r'''xcodebuild -workspace Tally.xcworkspace \
  -scheme Tally \
  -destination 'platform=iOS Simulator,name=iPhone 15,OS=17.2' \
  -resultBundlePath build/TestResults.xcresult \
  test | xcpretty''',
     'runs': ['xcodebuild test', 'xcpretty']},
    {'command': 'npx expo prebuild --clean && npx pod-install',
     'runs': ['expo prebuild', 'pod-install']},

    # --- Node / TS / frontend ---
    {'command': 'pnpm --filter @acme/web run typecheck',
     'runs': ['pnpm run typecheck']},
    {'command': 'npx drizzle-kit generate && npx drizzle-kit migrate',
     'runs': ['drizzle-kit generate', 'drizzle-kit migrate']},
    {'command': 'npm run typeorm -- migration:run -d src/data-source.ts',
     'runs': ['npm run typeorm', 'typeorm migration:run']},
    {'command': 'pnpm exec playwright test tests/checkout.spec.ts --project=webkit --retries=0',
     'runs': ['pnpm exec', 'playwright test']},
    {'command': 'npx cypress run --spec "cypress/e2e/auth/**/*.cy.ts" --browser chrome',
     'runs': ['cypress run']},
    {'command': 'deno test --allow-net --allow-env=API_BASE tests/ && deno task bundle',
     'runs': ['deno test', 'deno task bundle']},
    {'command': 'npx nx affected -t lint test --base=origin/main --parallel=3',
     'runs': ['nx affected']},
    {'command': 'pnpm changeset version && pnpm install --lockfile-only',
     'runs': ['changeset version', 'pnpm install']},
    {'command': 'npx prettier --check . || npx prettier --write .',
     'runs': ['prettier']},
    {'command': 'npm ci || (rm -rf node_modules package-lock.json && npm install)',
     'runs': ['npm ci', 'npm install']},
    {'command': 'cd web; npm run lint; npm run test:unit -- --run',
     'runs': ['npm run lint', 'npm run test:unit']},
    {'command': 'npm run build --workspace=packages/ui && npm run storybook:build -w packages/ui',
     'runs': ['npm run build', 'npm run storybook:build']},
    {'command': 'yarn gen:graphql && git status --short src/__generated__',
     'runs': ['yarn gen:graphql', 'git status']},
    {'command': 'pnpm run db:seed -- --tenants 5 --with-orders',
     'runs': ['pnpm run db:seed']},
    {'command': 'bash -lc "cd ~/src/ledger-ui && nvm use && npm ci && npm run migrate:latest"',
     'runs': ['nvm use', 'npm ci', 'npm run migrate:latest']},
    {'command': 'node tools/build-icons.mjs --src assets/svg --out src/icons > /dev/null',
     'runs': ['build-icons.mjs']},
    {'command': 'npx wrangler deploy --env production',
     'runs': ['wrangler deploy']},
    {'command': 'vercel pull --yes --environment=production && vercel build --prod && vercel deploy --prebuilt --prod',
     'runs': ['vercel pull', 'vercel build', 'vercel deploy']},
    {'command': 'firebase deploy --only functions:sendReceipt,firestore:rules --project acme-prod',
     'runs': ['firebase deploy']},
    {'command': 'supabase db push --linked && supabase gen types typescript --linked > src/types/database.ts',
     'runs': ['supabase db push', 'supabase gen types']},

    # --- Go / Rust / native ---
    {'command': 'go test ./internal/scheduler/... -run TestLeaseExpiry -count=1 -race',
     'runs': ['go test']},
    {'command': 'go generate ./... && git diff --exit-code',
     'runs': ['go generate', 'git diff']},
    {'command': 'goose -dir db/migrations postgres "$PG_DSN" up-by-one',
     'runs': ['goose up-by-one']},
    {'command': 'CGO_ENABLED=0 GOOS=linux go build -ldflags "-s -w -X main.version=$(git describe --tags --always)" -o bin/gateway ./cmd/gateway',
     'runs': ['go build', 'git describe']},
    {'command': 'go run ./cmd/seedctl --fixtures testdata/tenants.yaml --reset',
     'runs': ['go run', 'seedctl']},
    {'command': 'sqlc generate && go vet ./internal/store/...',
     'runs': ['sqlc generate', 'go vet']},
    {'command': 'buf lint && buf generate --template buf.gen.yaml',
     'runs': ['buf lint', 'buf generate']},
    {'command': 'RUST_LOG=replay=debug cargo run --release --bin replay -- --from 2024-03-01 ./fixtures/events.ndjson',
     'runs': ['cargo run', 'replay']},
    {'command': 'cargo fmt --all -- --check || cargo fmt --all',
     'runs': ['cargo fmt']},
    {'command': 'sqlx migrate run --database-url "$DATABASE_URL" && cargo sqlx prepare --workspace',
     'runs': ['sqlx migrate', 'cargo sqlx prepare']},
    {'command': r'''cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  && cmake --build build --target codec_tests \
  && ctest --test-dir build -R codec --output-on-failure''',
     'runs': ['cmake', 'cmake --build', 'ctest']},
    {'command': 'bazel test //services/auth/... --test_output=errors --config=ci',
     'runs': ['bazel test']},
    {'command': 'nix build .#dockerImage && docker load < result',
     'runs': ['nix build', 'docker load']},

    # --- task runners ---
    {'command': 'make -j8 -C firmware flash BOARD=nrf52840dk',
     'runs': ['make flash']},
    {'command': 'time make -j$(nproc) test-unit',
     'runs': ['make test-unit']},
    {'command': 'FORCE=1 make db-reset 2>&1 | tee /tmp/db-reset.log',
     'runs': ['make db-reset']},
    {'command': 'just seed-demo tenant=acme',
     'runs': ['just seed-demo']},

    # --- Infra: terraform / cloud / config mgmt ---
    {'command': 'terraform -chdir=envs/staging plan -out=tfplan -var-file=staging.tfvars',
     'runs': ['terraform plan']},
    {'command': '''terraform state mv 'module.vpc.aws_subnet.private[0]' 'module.network.aws_subnet.private["a"]' ''',
     'runs': ['terraform state mv']},
    {'command': 'env -u AWS_PROFILE AWS_REGION=us-west-2 terraform apply tfplan',
     'runs': ['terraform apply']},
    {'command': 'terragrunt run-all apply --terragrunt-non-interactive --terragrunt-working-dir live/prod/us-east-1',
     'runs': ['terragrunt run-all']},
    {'command': 'pulumi up --stack org/payments/prod --yes --skip-preview',
     'runs': ['pulumi up']},
    {'command': 'cd infra/cdk && npx cdk diff PipelineStack --context env=qa',
     'runs': ['cdk diff']},
    {'command': 'sam build --use-container && sam deploy --config-env staging --no-confirm-changeset',
     'runs': ['sam build', 'sam deploy']},
    {'command': 'ansible-playbook -i inventories/prod/hosts.ini site.yml --limit db_primary --check --diff',
     'runs': ['ansible-playbook', 'site.yml']},
    {'command': 'packer build -var "ami_version=$(date +%Y%m%d)" images/base.pkr.hcl',
     'runs': ['packer build']},
    {'command': 'aws s3 sync ./dist s3://acme-marketing-site --delete --cache-control max-age=300',
     'runs': ['aws s3 sync']},
    {'command': 'aws ecs update-service --cluster prod --service worker --force-new-deployment --region eu-central-1',
     'runs': ['aws ecs update-service']},
    {'command': r'''gcloud run deploy thumbnailer \
  --source . \
  --region us-central1 \
  --no-allow-unauthenticated \
  --set-env-vars BUCKET=acme-thumbs,MAX_WIDTH=1024 \
  --service-account thumbnailer@acme-prod.iam.gserviceaccount.com''',
     'runs': ['gcloud run deploy']},
    {'command': 'flyctl deploy --app quiet-meadow-4821 --strategy rolling',
     'runs': ['flyctl deploy']},
    {'command': "sops -d secrets/prod.enc.yaml | yq '.stripe.webhook_secret'",
     'runs': ['sops']},

    # --- Kubernetes / containers ---
    {'command': 'helm dependency update charts/platform && helm lint charts/platform',
     'runs': ['helm dependency update', 'helm lint']},
    {'command': 'helm -n observability upgrade --install loki grafana/loki -f values/loki-prod.yaml --atomic --timeout 10m',
     'runs': ['helm upgrade']},
    {'command': 'helm template api ./charts/api --set image.tag=sha-3f9c2e1 | kubectl diff -f -',
     'runs': ['helm template', 'kubectl diff']},
    {'command': 'kubectl --context gke-eu-west1 -n ingest scale deploy/kafka-consumer --replicas=0',
     'runs': ['kubectl scale']},
    {'command': 'kubectl get pods -n payments -o wide | grep -v Running',
     'runs': ['kubectl get']},
    {'command': r'''kubectl logs -n search deploy/indexer --since=30m -c worker | grep -iE "oom|killed"''',
     'runs': ['kubectl logs']},
    {'command': '''kubectl exec -it -n db statefulset/postgres -- psql -U app -c "select pid, state, left(query, 80) from pg_stat_activity where state <> 'idle';"''',
     'runs': ['kubectl exec', 'psql']},
    {'command': 'kubectl apply -k overlays/staging --server-side --dry-run=server',
     'runs': ['kubectl apply']},
    {'command': 'kubectl delete $(kubectl get pods -n ci -l job=stale -o name) -n ci --wait=false',
     'runs': ['kubectl delete', 'kubectl get']},
    {'command': r'''kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: reindex-$(date +%s)
  namespace: search
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: reindex
          image: ghcr.io/acme/search:2.14.1
          args: ["reindex", "--all"]
EOF''',
     'runs': ['kubectl apply']},
    {'command': 'kustomize build overlays/prod | kubeconform -strict -summary -',
     'runs': ['kustomize build', 'kubeconform']},
    {'command': 'argocd app sync billing-api --prune --timeout 300',
     'runs': ['argocd app sync']},
    {'command': 'docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/relay:1.9.2 --push .',
     'runs': ['docker buildx build']},
    {'command': 'docker compose -f docker-compose.yml -f docker-compose.test.yml run --rm api pytest -q tests/integration',
     'runs': ['docker compose run', 'pytest']},
    {'command': 'docker exec -i pg-local psql -U postgres -d analytics < dumps/analytics_2024-05-01.sql',
     'runs': ['docker exec', 'psql']},
    {'command': 'export TAG=$(git rev-parse --short HEAD) && docker build -t registry.internal/etl:$TAG -f docker/etl.Dockerfile .',
     'runs': ['git rev-parse', 'docker build']},
    {'command': 'docker login ghcr.io -u acme-bot --password-stdin <<< "$GHCR_TOKEN"',
     'runs': ['docker login']},
    {'command': 'podman build -f Containerfile -t localhost/notes:dev . && podman run --rm -p 8080:8080 localhost/notes:dev',
     'runs': ['podman build', 'podman run']},
    {'command': r'''docker run --rm -it \
  --network host \
  -v "$PWD/migrations:/flyway/sql:ro" \
  -e FLYWAY_URL=jdbc:postgresql://localhost:5432/orders \
  -e FLYWAY_USER=orders \
  flyway/flyway:10 migrate''',
     'runs': ['docker run', 'flyway migrate']},

    # --- Databases ---
    {'command': 'sudo -u postgres pg_dump -Fc -d crm -f /var/backups/crm_$(date +%F).dump',
     'runs': ['pg_dump']},
    {'command': 'psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f sql/2024_06_add_partition.sql',
     'runs': ['psql', '2024_06_add_partition.sql']},
    {'command': r'''psql -h localhost -U app -d ledger -v ON_ERROR_STOP=1 <<'SQL'
BEGIN;
UPDATE accounts SET frozen = false WHERE frozen_reason = 'kyc_timeout' AND updated_at < now() - interval '30 days';
SELECT count(*) FROM accounts WHERE frozen;
COMMIT;
SQL''',
     'runs': ['psql']},
    {'command': 'mysql -h 127.0.0.1 -u root -p"$MYSQL_ROOT_PASSWORD" wordpress < migrations/003_fix_collation.sql',
     'runs': ['mysql', '003_fix_collation.sql']},
    {'command': "redis-cli -n 2 --scan --pattern 'session:*' | xargs -r -n 500 redis-cli -n 2 del",
     'runs': ['redis-cli']},
    {'command': 'mongosh "$MONGO_URI" --quiet --file scripts/migrate_user_prefs.js',
     'runs': ['mongosh', 'migrate_user_prefs.js']},

    # --- git / gh ---
    {'command': 'git -C vendor/protos fetch origin && git -C vendor/protos checkout v2.3.0',
     'runs': ['git fetch', 'git checkout']},
    {'command': 'GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash origin/main',
     'runs': ['git rebase']},
    {'command': 'git push --force-with-lease origin HEAD:refs/heads/feat/ledger-v2',
     'runs': ['git push']},
    {'command': 'git tag -a v0.14.0 -m "v0.14.0" && git push origin v0.14.0',
     'runs': ['git tag', 'git push']},
    {'command': 'git bisect start HEAD v3.2.0 && git bisect run ./scripts/repro_flaky.sh',
     'runs': ['git bisect', 'repro_flaky.sh']},
    {'command': 'git stash push -m wip-before-rebase -- src/ && git pull --rebase',
     'runs': ['git stash', 'git pull']},
    {'command': r'''git commit -F - <<'MSG'
fix(cache): bound LRU size by bytes instead of entries

Large thumbnails could push RSS past the container limit.
Refs: OPS-2291
MSG''',
     'runs': ['git commit']},
    {'command': 'gh pr create --base develop --title "fix(cache): bound LRU size" --body-file .github/pr_body.md',
     'runs': ['gh pr create']},
    {'command': "jq -r '.tag_name' <<< \"$(gh api repos/acme/relay/releases/latest)\"",
     'runs': ['gh api']},

    # --- scripts by path, wrappers, services ---
    {'command': 'nohup ./bin/reindex.sh products > /tmp/reindex.out 2>&1 &',
     'runs': ['reindex.sh']},
    {'command': 'timeout 300 ./scripts/wait-for-healthy.sh http://localhost:8080/healthz',
     'runs': ['wait-for-healthy.sh']},
    {'command': 'bash ops/rotate_keys.sh --env staging --dry-run 2>&1 | tail -20',
     'runs': ['rotate_keys.sh']},
    {'command': 'sudo systemctl restart nginx && sudo journalctl -u nginx -n 50 --no-pager',
     'runs': ['systemctl restart', 'journalctl']},
    {'command': 'npx ts-node --transpile-only scripts/sync-stripe-prices.ts --live',
     'runs': ['ts-node', 'sync-stripe-prices.ts']},

    # --- heredoc / inspection with nothing a lesson would name ---
    {'command': r'''cat <<'EOF' > .env.local
DATABASE_URL=postgres://app:app@localhost:5432/app_dev
REDIS_URL=redis://localhost:6379/0
FEATURE_NEW_CHECKOUT=1
EOF''',
     'runs': []},
    {'command': 'ls -la migrations/versions | tail -5',
     'runs': []},
    {'command': "grep -v '^#' .env.example | sort",
     'runs': []},
    {'command': 'rg -n "TODO\\(perf\\)" src/ --glob \'!vendor/**\'',
     'runs': []},
    {'command': 'cd apps/admin && pwd && ls',
     'runs': []},
    {'command': 'echo "$KUBECONFIG"',
     'runs': []},
    {'command': "find . -name '*.orig' -o -name '*.rej' | xargs rm -f",
     'runs': []},
    {'command': 'head -n 40 CHANGELOG.md',
     'runs': []},
    {'command': 'diff <(sort expected_ids.txt) <(sort actual_ids.txt) | head',
     'runs': []},
    {'command': 'tree -L 2 -I node_modules',
     'runs': []},
]
