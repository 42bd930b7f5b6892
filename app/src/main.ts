/**
 * The service's app (`/app/`): Team & Settings > Publish. Sign in, choose a company, manage its
 * widgets; see docs/architecture.md, "The app".
 */
import { App, type ViewFactory } from './app.ts';
import { CreateView } from './create.ts';
import { CompaniesView, LecturerView, NoCompanyView, TeamView } from './pages.ts';
import { PublishView } from './publish.ts';
import { SignInView } from './sign-in.ts';
import { WidgetView } from './widget.ts';

/** Each route's view; a lecturer's Publish is the page that says why there is none. */
const views: Record<string, ViewFactory> = {
  'sign-in': (app) => new SignInView(app),
  companies: (app) => new CompaniesView(app),
  'no-company': (app) => new NoCompanyView(app),
  publish: (app, route, company) =>
    company!.role === 'lecturer'
      ? new LecturerView(app)
      : new PublishView(app, company!, route.name === 'publish' ? route.type : undefined),
  new: (app, _route, company) => (company!.role === 'lecturer' ? new LecturerView(app) : new CreateView(app, company!)),
  widget: (app, route, company) =>
    company!.role === 'lecturer' || route.name !== 'widget' ? new LecturerView(app) : new WidgetView(app, company!, route.id),
  team: (app, _route, company) => (company!.role === 'lecturer' ? new LecturerView(app) : new TeamView(app, company!)),
};

void new App(document.querySelector<HTMLElement>('#app')!, views).start();
