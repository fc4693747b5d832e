// The web view's entry: picks the page for the URL and keeps it live.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { Layout } from './components/layout.tsx';
import { installKeyboard } from './keyboard.ts';
import { CommitPage } from './pages/commit.tsx';
import { FlowPage } from './pages/flow.tsx';
import { ObjectPage } from './pages/object.tsx';
import { OperatorPage } from './pages/operator.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { PreviewPage, PreviewsPage } from './pages/previews.tsx';
import { SourcePage } from './pages/source.tsx';
import { interceptLinks, paths, useRoute, type Route } from './router.ts';
import { applyInitialTheme } from './theme.ts';
import './styles.css';

function titleOf(r: Route): string {
  switch (r.page) {
    case 'overview':
      return 'Overview';
    case 'source':
      return `Source ${r.namespace}/${r.name}`;
    case 'commit':
      return `Commit ${r.commit.slice(0, 8)} of ${r.namespace}/${r.name}`;
    case 'previews':
      return `Previews of ${r.namespace}/${r.name}`;
    case 'preview':
      return `Preview #${r.pr} of ${r.namespace}/${r.name}`;
    case 'flow':
      return `Flow ${r.namespace}/${r.name}`;
    case 'object':
      return `${r.key.kind} ${r.key.name}`;
    case 'operator':
      return `Operator ${r.name}`;
    case 'missing':
      return 'Not found';
  }
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'overview':
      return <OverviewPage />;
    case 'source':
      return <SourcePage key={`${route.namespace}/${route.name}`} namespace={route.namespace} name={route.name} />;
    case 'commit':
      return <CommitPage key={route.commit} namespace={route.namespace} name={route.name} commit={route.commit} />;
    case 'previews':
      return <PreviewsPage key={`${route.namespace}/${route.name}`} namespace={route.namespace} name={route.name} />;
    case 'preview':
      return (
        <PreviewPage
          key={`${route.namespace}/${route.name}#${route.pr}`}
          namespace={route.namespace}
          name={route.name}
          pr={route.pr}
        />
      );
    case 'flow':
      return (
        <FlowPage
          key={`${route.namespace}/${route.name}@${route.commit ?? ''}`}
          namespace={route.namespace}
          name={route.name}
          commit={route.commit}
        />
      );
    case 'object':
      return <ObjectPage key={paths.object(route.key)} objectKey={route.key} />;
    case 'operator':
      return <OperatorPage key={route.name} name={route.name} />;
    case 'missing':
      return (
        <p class="notice">
          No page at <code>{route.path}</code>. <a href={paths.overview()}>Overview</a>
        </p>
      );
  }
}

function App() {
  const route = useRoute();
  useEffect(() => {
    document.title = `${titleOf(route)} · FlowOps`;
    // After in-app navigation, focus moves to the new page as a full load would put it there.
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [route]);
  return (
    <Layout>
      <Page route={route} />
    </Layout>
  );
}

applyInitialTheme();
const root = document.getElementById('app')!;
interceptLinks(root);
installKeyboard();
render(<App />, root);
