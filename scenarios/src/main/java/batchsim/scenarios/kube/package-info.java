/**
 * Sweeps on the users' own Kubernetes: the manifests of a sweep as an Indexed Job queued by Kueue
 * ({@link batchsim.scenarios.kube.SweepManifests}), the files its pods see ({@link batchsim.scenarios.kube.PodFiles})
 * and the names they carry ({@link batchsim.scenarios.kube.KubeNames}).
 */
package batchsim.scenarios.kube;
